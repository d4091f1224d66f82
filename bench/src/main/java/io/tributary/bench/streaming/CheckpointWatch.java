package io.tributary.bench.streaming;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Polls the ACTIVE group's checkpoint LSN in storage every {@code interval} on its own thread and keeps every
 * change with the {@link System#nanoTime()} it was first seen at; failed polls are retried. Thread-safe;
 * {@link #close()} stops polling.
 */
final class CheckpointWatch implements AutoCloseable {

    /** A checkpoint LSN and when the watch first saw it. */
    record Seen(long nanos, Lsn lsn) {
    }

    private final PgEndpoint storage;
    private final Duration interval;
    private final List<Seen> seen = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile Optional<SQLException> lastFailure = Optional.empty();

    private CheckpointWatch(PgEndpoint storage, Duration interval) {
        this.storage = storage;
        this.interval = interval;
        this.thread = new Thread(this::poll, "bench-checkpoint-watch");
        thread.setDaemon(true);
    }

    /** Starts polling {@code storage}. */
    static CheckpointWatch start(PgEndpoint storage, Duration interval) {
        CheckpointWatch watch = new CheckpointWatch(storage, interval);
        watch.thread.start();
        return watch;
    }

    /** The checkpoints seen so far, in order. */
    synchronized List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** When a checkpoint at or past {@code lsn} was first seen, if one was. */
    synchronized OptionalLong covering(Lsn lsn) {
        int lo = 0;
        int hi = seen.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (seen.get(mid).lsn().compareTo(lsn) >= 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo < seen.size() ? OptionalLong.of(seen.get(lo).nanos()) : OptionalLong.empty();
    }

    /** Waits up to {@code timeout} for a checkpoint at or past {@code lsn}; returns when it was first seen. */
    OptionalLong awaitCovering(Lsn lsn, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            OptionalLong at = covering(lsn);
            if (at.isPresent()) {
                return at;
            }
            LockSupport.parkNanos(interval.toNanos());
        }
        return OptionalLong.empty();
    }

    /** Polls until closed; a failed query (storage not migrated yet, a lost connection) is retried. */
    private void poll() {
        while (running.get()) {
            try (Connection c = storage.connect(); PreparedStatement s = c.prepareStatement("SELECT"
                + " checkpoint_lsn::text FROM tributary.sync_rules WHERE state = 'ACTIVE'"
                + " AND checkpoint_lsn IS NOT NULL ORDER BY group_id DESC LIMIT 1")) {
                while (running.get()) {
                    try (ResultSet rs = s.executeQuery()) {
                        if (rs.next()) {
                            record(System.nanoTime(), Lsn.parse(rs.getString(1)));
                        }
                    }
                    LockSupport.parkNanos(interval.toNanos());
                }
            } catch (SQLException e) {
                lastFailure = Optional.of(e);
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        }
    }

    /** The last failed poll, if any (polling went on after it). */
    Optional<SQLException> lastFailure() {
        return lastFailure;
    }

    private synchronized void record(long nanos, Lsn lsn) {
        if (seen.isEmpty() || lsn.isAfter(seen.get(seen.size() - 1).lsn())) {
            seen.add(new Seen(nanos, lsn));
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
    }
}
