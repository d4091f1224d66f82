package io.tributary.bench.pipeline;

import io.tributary.bench.probe.BrokerRequests;
import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.RoleCpu;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Takes the CPU readings of a pipeline run at the moment a sync rules group newer than the ones storage held at its
 * start turns ACTIVE, so a
 * snapshot row's CPU covers the same window as its seconds (launcher call to ACTIVE), not the catch-up, shutdown and
 * storage check after it. A daemon thread polls the group's state every {@value #PERIOD_MILLIS} ms (a missing schema
 * or database counts as not yet ACTIVE) and takes the readings once; they are late by at most one period.
 * Thread-safe; {@link #close()} stops polling.
 */
final class ActiveWatch implements AutoCloseable {

    /** How often the state is polled, in milliseconds. */
    static final long PERIOD_MILLIS = 250;

    /** What was measured at ACTIVE: totals of the probes (to subtract the totals at the start from) and roles. */
    record Reading(CpuUse total, List<Double> serverSeconds, Map<RoleCpu.Role, Double> roles,
                   Map<String, Long> brokerRequests) {
    }

    private final PgEndpoint storage;
    private final long afterGroup;
    private final CpuProbe cpu;
    private final RoleCpu roles;
    private final AtomicReference<Reading> reading = new AtomicReference<>();
    private final Thread poller;
    private volatile boolean running = true;

    private ActiveWatch(PgEndpoint storage, long afterGroup, CpuProbe cpu, RoleCpu roles) {
        this.storage = storage;
        this.afterGroup = afterGroup;
        this.cpu = cpu;
        this.roles = roles;
        this.poller = new Thread(this::poll, "bench-active-watch");
        poller.setDaemon(true);
    }

    /**
     * Starts watching {@code storage} for a group with an id above {@code afterGroup} (0 on a fresh storage);
     * {@code roles} must be started.
     */
    static ActiveWatch start(PgEndpoint storage, long afterGroup, CpuProbe cpu, RoleCpu roles) {
        ActiveWatch watch = new ActiveWatch(storage, afterGroup, cpu, roles);
        watch.poller.start();
        return watch;
    }

    /** The readings taken when the group was first seen ACTIVE; empty if it was not (yet). */
    Optional<Reading> reading() {
        return Optional.ofNullable(reading.get());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        poller.interrupt();
        poller.join(2_000);
    }

    private void poll() {
        Connection connection = null;
        try {
            while (running && reading.get() == null) {
                try {
                    if (connection == null) {
                        connection = storage.connect();
                    }
                    if (isActive(connection, afterGroup)) {
                        reading.set(new Reading(cpu.total(), cpu.serverSeconds(), roles.now(),
                            BrokerRequests.counts()));
                        return;
                    }
                } catch (SQLException e) {
                    if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
                        closeQuietly(connection);
                        connection = null;
                    }
                }
                Thread.sleep(PERIOD_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(connection);
        }
    }

    private static boolean isActive(Connection connection, long afterGroup) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(
            "SELECT state FROM tributary.sync_rules WHERE group_id > ? ORDER BY group_id DESC LIMIT 1")) {
            s.setLong(1, afterGroup);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && "ACTIVE".equals(rs.getString(1));
            }
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // the connection is gone either way
        }
    }
}
