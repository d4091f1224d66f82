package io.tributary.bench.load;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Polls the ACTIVE group's checkpoint in storage every {@code interval} on its own thread and keeps, per
 * checkpoint op id, the {@code checkpoint_at} storage stamped on the first checkpoint that reached it (the
 * publishing transaction's start). Thread-safe; {@link #close()} stops polling.
 */
final class CheckpointTimes implements AutoCloseable {

    private final PgEndpoint storage;
    private final Duration interval;
    private final Map<Long, Long> publishedMicros = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    private CheckpointTimes(PgEndpoint storage, Duration interval) {
        this.storage = storage;
        this.interval = interval;
        this.thread = new Thread(this::poll, "bench-checkpoint-times");
        thread.setDaemon(true);
    }

    static CheckpointTimes start(PgEndpoint storage, Duration interval) {
        CheckpointTimes times = new CheckpointTimes(storage, interval);
        times.thread.start();
        return times;
    }

    /** Epoch microseconds of the first checkpoint seen at {@code opId}, if one was seen. */
    OptionalLong publishedMicros(long opId) {
        Long at = publishedMicros.get(opId);
        return at == null ? OptionalLong.empty() : OptionalLong.of(at);
    }

    private void poll() {
        while (running.get()) {
            try (Connection c = storage.connect(); PreparedStatement s = c.prepareStatement("SELECT checkpoint_op_id,"
                + " (extract(epoch FROM checkpoint_at) * 1000000)::bigint FROM tributary.sync_rules"
                + " WHERE state = 'ACTIVE' AND checkpoint_op_id IS NOT NULL ORDER BY group_id DESC LIMIT 1")) {
                while (running.get()) {
                    try (ResultSet rs = s.executeQuery()) {
                        if (rs.next()) {
                            publishedMicros.putIfAbsent(rs.getLong(1), rs.getLong(2));
                        }
                    }
                    LockSupport.parkNanos(interval.toNanos());
                }
            } catch (SQLException e) {
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
    }
}
