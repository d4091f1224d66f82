package io.tributary.snapshot;

import io.tributary.snapshot.queue.WorkerPool;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.topics.provision.TopicProvisioner;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The snapshot workers of one process ({@code replication:snapshot}): {@code workersPerProcess} loops, each a member
 * of the consumer group {@code <prefix>snapshot-workers} over {@code snapshot-tasks}, each reading one chunk at a
 * time and publishing its rows to {@code snapshot-rows} (see the package documentation for the protocol).
 *
 * <p>{@link #start} provisions the topics first (waiting for partition leaders) and returns once the loops run;
 * {@link #close()} stops them after their read chunks are acknowledged and committed; {@link #abort()} stops them
 * at once, as a crash would. Thread-safe.
 */
public final class SnapshotWorkers implements Stage {

    private final WorkerPool pool;

    private SnapshotWorkers(WorkerPool pool) {
        this.pool = pool;
    }

    /** Starts the workers of {@code config}. */
    public static SnapshotWorkers start(SnapshotWorkerConfig config) {
        return start(config, ChunkListener.NONE);
    }

    /** Starts the workers of {@code config}, reporting what they do to {@code listener}. */
    public static SnapshotWorkers start(SnapshotWorkerConfig config, ChunkListener listener) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(listener, "listener");
        try (Admin admin = Admin.create(Map.copyOf(config.kafka()))) {
            TopicProvisioner.ensure(admin, config.topics(), config.layout());
        }
        return new SnapshotWorkers(WorkerPool.start(config, listener));
    }

    /** Why a loop stopped on its own (a permanent worker failure), if one did. */
    @Override
    public String stageName() {
        return "snapshot workers";
    }

    @Override
    public Optional<Throwable> failure() {
        return pool.failure();
    }

    /** Whether every loop is running. */
    public boolean isRunning() {
        return pool.isRunning();
    }

    /** Stops after the chunks already read are acknowledged and committed, waiting at most {@code timeout}. */
    public void close(Duration timeout) {
        pool.close(timeout);
    }

    /** {@link #close(Duration)} with 30 seconds. */
    @Override
    public void close() {
        pool.close();
    }

    /** Stops at once, as a crash would: work in progress is redone by other members as new attempts. */
    public void abort() {
        pool.abort();
    }
}
