package io.tributary.launcher.run;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.inspect.ReplicationSlot;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the source's replication slot every interval: gauges {@code tributary_replication_slot_retained_wal_bytes},
 * {@code tributary_replication_slot_confirmed_flush_lag_bytes} and {@code tributary_replication_slot_active}
 * (tagged {@code slot}; NaN until the first reading and while the slot does not exist), and a warning, logged
 * when the retained WAL crosses the threshold and every {@link #REPEAT} while it stays above, and offered to
 * {@code /health/ready} by {@link #warning()}. Thread-safe; closing stops it.
 */
final class SlotMonitor implements AutoCloseable {

    /** How often a warning that still holds is logged again. */
    static final Duration REPEAT = Duration.ofMinutes(5);

    private static final Logger LOG = LoggerFactory.getLogger(SlotMonitor.class);

    private final JdbcEndpoint source;
    private final String slot;
    private final long warningBytes;
    private final AtomicReference<Optional<ReplicationSlot>> latest = new AtomicReference<>(Optional.empty());
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "slot-monitor");
        thread.setDaemon(true);
        return thread;
    });
    private long lastWarnedNanos;
    private boolean warned;

    /**
     * @param warningBytes retained WAL above which the slot is reported ({@code replication.slot_wal_warning_mb})
     */
    SlotMonitor(JdbcEndpoint source, String slot, long warningBytes, MeterRegistry registry) {
        this.source = source;
        this.slot = slot;
        this.warningBytes = warningBytes;
        gauge(registry, "tributary_replication_slot_retained_wal_bytes",
            "WAL the replication slot keeps on the source's disk (restart_lsn to the current position)",
            ReplicationSlot::retainedWalBytes);
        gauge(registry, "tributary_replication_slot_confirmed_flush_lag_bytes",
            "WAL between the slot's confirmed_flush_lsn and the current position",
            ReplicationSlot::confirmedFlushLagBytes);
        gauge(registry, "tributary_replication_slot_active", "1 while a consumer is attached to the slot, else 0",
            s -> s.active() ? 1 : 0);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ReplicationSlot> of) {
        Gauge.builder(name, latest, ref -> ref.get().map(of::applyAsDouble).orElse(Double.NaN))
            .description(description).tag("slot", slot).baseUnit(name.endsWith("_bytes") ? "bytes" : null)
            .register(registry);
    }

    void start(Duration interval) {
        scheduler.scheduleWithFixedDelay(this::pollQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reads the slot now, updates the gauges and logs a warning that is due. */
    Optional<ReplicationSlot> poll() throws SQLException {
        Optional<ReplicationSlot> reading;
        try (Connection connection = Environment.connect(source)) {
            reading = ReplicationSlot.read(connection, slot);
        }
        latest.set(reading);
        logWarning(reading);
        return reading;
    }

    /** The warning while the slot retains more WAL than the threshold, for {@code /health/ready}. */
    Optional<String> warning() {
        return latest.get().filter(s -> s.retainsMoreThan(warningBytes)).map(this::warningText);
    }

    private synchronized void logWarning(Optional<ReplicationSlot> reading) {
        boolean above = reading.filter(s -> s.retainsMoreThan(warningBytes)).isPresent();
        long now = System.nanoTime();
        if (above && (!warned || now - lastWarnedNanos >= REPEAT.toNanos())) {
            LOG.warn(warningText(reading.get()));
            warned = true;
            lastWarnedNanos = now;
        } else if (!above && warned) {
            LOG.info("Replication {} again at or below the warning threshold of {} bytes",
                reading.map(ReplicationSlot::describe).orElse("slot " + slot + " gone"), warningBytes);
            warned = false;
        }
    }

    private String warningText(ReplicationSlot reading) {
        return "Replication " + reading.describe() + ": above replication.slot_wal_warning_mb ("
            + warningBytes / (1024 * 1024) + " MiB). The source keeps this WAL on its disk until the ingest "
            + "confirms it: check that the ingest runs and keeps up, or drop the slot of a deployment that is gone";
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("Replication slot {} not readable now: {}", slot, e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
