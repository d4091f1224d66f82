package io.tributary.launcher.run;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.WriterStats;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one running storage writer, tagged with its sync rules group: storage write latency
 * ({@code tributary_storage_write_seconds}, count and sum of batch transactions), ops and records written,
 * dead letters, retries. Removed when the writer stops.
 */
final class WriterMeters implements AutoCloseable {

    private final MeterRegistry registry;
    private final List<Meter> meters;

    WriterMeters(MeterRegistry registry, long groupId, StorageWriter writer) {
        this.registry = registry;
        String group = Long.toString(groupId);
        this.meters = List.of(
            FunctionTimer.builder("tributary_storage_write", writer, w -> w.stats().batchesCommitted(),
                    w -> w.stats().commitNanos(), TimeUnit.NANOSECONDS)
                .description("batch transactions into storage (retries included)").tag("group", group)
                .register(registry),
            counter("tributary_storage_ops", "bucket ops written", group, writer, WriterStats::opsWritten),
            counter("tributary_storage_records", "records of rows applied", group, writer,
                WriterStats::recordsConsumed),
            counter("tributary_storage_dead_letters", "poison records sent to the dead-letter topic", group, writer,
                WriterStats::deadLettered),
            counter("tributary_storage_retries", "retried storage operations", group, writer, WriterStats::retries));
    }

    private Meter counter(String name, String description, String group, StorageWriter writer,
                          ToDoubleFunction<WriterStats> value) {
        return FunctionCounter.builder(name, writer, w -> value.applyAsDouble(w.stats())).description(description)
            .tag("group", group).register(registry);
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
