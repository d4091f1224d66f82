package io.tributary.launcher.run;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.WriterStats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one running storage writer, tagged {@code sync_rules_group} with its group id: storage write
 * latency ({@code tributary_storage_write_seconds}, a histogram of batch transactions, retries included, from
 * 1 ms to 1 min), ops and records written, dead letters, retries. Removed when the writer stops.
 */
final class WriterMeters implements AutoCloseable {

    /** The tag naming the sync rules group (a storage writer's consumer group is named after it). */
    static final String GROUP_TAG = "sync_rules_group";

    private final MeterRegistry registry;
    private final List<Meter> meters;

    WriterMeters(MeterRegistry registry, long groupId, StorageWriter writer) {
        this.registry = registry;
        String group = Long.toString(groupId);
        Timer latency = Timer.builder("tributary_storage_write")
            .description("batch transactions into storage (retries included)").tag(GROUP_TAG, group)
            .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(1)).register(registry);
        writer.onBatchCommitted(nanos -> latency.record(nanos, TimeUnit.NANOSECONDS));
        this.meters = List.of(latency,
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
            .tag(GROUP_TAG, group).register(registry);
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
