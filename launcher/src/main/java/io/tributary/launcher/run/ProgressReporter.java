package io.tributary.launcher.run;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.env.Environment;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads progress from storage every interval, prints the live display line and feeds the gauges autoscalers
 * and dashboards read ({@code tributary_pending_snapshot_count}, {@code tributary_active_snapshot_count},
 * {@code tributary_total_stream_count}, {@code tributary_active_stream_count}, each also served under its name
 * without the prefix, rows snapshotted). Closing stops it.
 */
final class ProgressReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressReporter.class);

    private final JdbcEndpoint storage;
    private final PrintWriter out;
    private final long started = System.nanoTime();
    private final AtomicReference<Optional<ProgressSnapshot>> latest = new AtomicReference<>(Optional.empty());
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "progress");
        thread.setDaemon(true);
        return thread;
    });
    private long lastRows;
    private long lastNanos = started;

    ProgressReporter(JdbcEndpoint storage, PrintWriter out, MeterRegistry registry) {
        this.storage = storage;
        this.out = out;
        withAlias(registry, "pending_snapshot_count", "snapshot chunks planned and not done",
            ProgressSnapshot::pendingChunks);
        withAlias(registry, "active_snapshot_count", "tables being snapshotted", ProgressSnapshot::openWindows);
        withAlias(registry, "total_stream_count", "live sync rules groups (PROCESSING or ACTIVE)",
            ProgressSnapshot::liveGroups);
        withAlias(registry, "active_stream_count", "ACTIVE sync rules groups", ProgressSnapshot::activeGroups);
        gauge(registry, "tributary_snapshot_rows", "rows read by completed snapshot chunks",
            ProgressSnapshot::rowsDone);
        gauge(registry, "tributary_snapshot_chunks", "snapshot chunks completed", ProgressSnapshot::chunksDone);
        gauge(registry, "tributary_snapshot_failed_tables", "tables whose snapshot failed",
            ProgressSnapshot::failedTables);
    }

    private interface Reading {
        long of(ProgressSnapshot snapshot);
    }

    /** {@code tributary_<name>}, and {@code <name>} as well: the names the autoscaling design settled on. */
    private void withAlias(MeterRegistry registry, String name, String description, Reading reading) {
        gauge(registry, "tributary_" + name, description, reading);
        gauge(registry, name, description + " (alias of tributary_" + name + ")", reading);
    }

    private void gauge(MeterRegistry registry, String name, String description, Reading reading) {
        Gauge.builder(name, latest, ref -> ref.get().map(reading::of).orElse(0L)).description(description)
            .register(registry);
    }

    void start(Duration interval) {
        scheduler.scheduleWithFixedDelay(this::report, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The newest reading, if one succeeded yet. */
    Optional<ProgressSnapshot> latest() {
        return latest.get();
    }

    /** Reads progress now (also what the caught-up check uses). */
    ProgressSnapshot read() throws SQLException {
        try (Connection connection = Environment.connect(storage)) {
            ProgressSnapshot snapshot = ProgressSnapshot.read(connection);
            latest.set(Optional.of(snapshot));
            return snapshot;
        }
    }

    /** Reads what the caught-up check needs now: the groups and the open window count (not the gauges' reading). */
    CatchUpState readCatchUpState() throws SQLException {
        try (Connection connection = Environment.connect(storage)) {
            return CatchUpState.read(connection);
        }
    }

    long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    private void report() {
        try {
            ProgressSnapshot snapshot = read();
            long now = System.nanoTime();
            double rate = (snapshot.rowsDone() - lastRows) * 1e9 / Math.max(1, now - lastNanos);
            lastRows = snapshot.rowsDone();
            lastNanos = now;
            out.println(snapshot.line(elapsedMillis(), rate));
            out.flush();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("Progress not readable yet: {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
