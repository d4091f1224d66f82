package io.tributary.bench.debezium;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Baseline: Debezium's raw drain rate of a WAL backlog. A slot and publication created before the changes were
 * written are read by an engine ({@code snapshot.mode=no_data}) whose handler only counts change events (create,
 * update, delete) and marks them processed; timed from the engine's start to the {@code changes}-th event.
 */
public final class DebeziumDrain {

    private DebeziumDrain() {
    }

    /** Drains slot and publication {@code name} until {@code changes} change events arrived. */
    public static Row run(String scenario, String configuration, PgEndpoint source, String name, long changes,
                          Duration timeout) throws Exception {
        return run(scenario, configuration, source, name, changes, timeout, new Properties());
    }

    /**
     * As {@link #run(String, String, PgEndpoint, String, long, Duration)}, with {@code extra} connector properties
     * applied last (e.g. ingest's transaction metadata, to price a setting against the plain drain of the same WAL).
     */
    public static Row run(String scenario, String configuration, PgEndpoint source, String name, long changes,
                          Duration timeout, Properties extra) throws Exception {
        Properties props = EngineRun.properties(name, source);
        props.setProperty("snapshot.mode", "no_data");
        props.setProperty("publication.autocreate.mode", "disabled");
        props.putAll(extra);
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        AtomicLong reached = new AtomicLong();
        AtomicLong engineCpu = new AtomicLong();
        DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> handler = (records, committer) -> {
            for (RecordChangeEvent<SourceRecord> event : records) {
                Optional<String> op = EngineRun.op(event.record());
                if (op.filter(o -> !"r".equals(o) && !"m".equals(o)).isPresent()
                    && seen.incrementAndGet() == changes) {
                    reached.set(System.nanoTime());
                    engineCpu.set(cpuOfThreadsNamed(name));
                    done.countDown();
                }
                committer.markProcessed(event);
            }
            committer.markBatchFinished();
        };
        long start = System.nanoTime();
        Optional<String> problem;
        try (EngineRun run = EngineRun.start(props, handler, done)) {
            problem = run.finished(timeout);
        } finally {
            EngineRun.dropSlotAndPublication(source, name);
        }
        if (problem.isPresent()) {
            return Row.failed(scenario, configuration, changes, (System.nanoTime() - start) / 1e9,
                problem.get() + " (" + seen.get() + " change events)");
        }
        return Row.ok(scenario, configuration, changes, (reached.get() - start) / 1e9, String.format(Locale.ROOT,
            "WAL changes; engine start (start-up included) to the last change event, counted and dropped;"
                + " Debezium's named threads (WAL decoding) %.1f us/change",
            engineCpu.get() / 1e3 / changes));
    }

    /** CPU nanoseconds so far of the live threads whose name contains {@code name} (Debezium names its own so). */
    private static long cpuOfThreadsNamed(String name) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(name)) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }
}
