package io.tributary.launcher.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ids of a registry's meters by name, kept up to date by the registry's meter added and removed listeners, so
 * the meters of one name are found without a scan of every meter (Micrometer's {@code find(name)} scans them all,
 * which made binding a client's metrics quadratic in the meters of the process). Thread-safe.
 */
final class MeterNames {

    private final Map<String, Set<Meter.Id>> byName = new ConcurrentHashMap<>();

    private MeterNames() {
    }

    /** Follows {@code registry}: its meters now and every meter it adds or removes from now on. */
    static MeterNames follow(MeterRegistry registry) {
        MeterNames names = new MeterNames();
        registry.config().onMeterAdded(meter -> names.add(meter.getId()))
            .onMeterRemoved(meter -> names.remove(meter.getId()));
        registry.getMeters().forEach(meter -> names.add(meter.getId()));
        return names;
    }

    /** The ids of the registry's meters named {@code name}, as of this call. */
    List<Meter.Id> named(String name) {
        Set<Meter.Id> ids = byName.get(name);
        return ids == null ? List.of() : List.copyOf(ids);
    }

    private void add(Meter.Id id) {
        byName.computeIfAbsent(id.getName(), name -> ConcurrentHashMap.newKeySet()).add(id);
    }

    private void remove(Meter.Id id) {
        byName.computeIfPresent(id.getName(), (name, ids) -> {
            ids.remove(id);
            return ids.isEmpty() ? null : ids;
        });
    }
}
