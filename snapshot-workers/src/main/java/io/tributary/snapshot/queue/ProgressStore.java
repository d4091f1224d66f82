package io.tributary.snapshot.queue;

import io.tributary.snapshot.DatabaseEndpoint;
import io.tributary.snapshot.RetryPolicy;
import io.tributary.snapshot.internals.FailureKind;
import io.tributary.snapshot.internals.Failures;
import io.tributary.snapshot.internals.Pacer;
import io.tributary.snapshot.internals.StopSignal;
import io.tributary.storage.progress.SnapshotChunks;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowProgress;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker loop's access to chunk progress in storage: each call is one short transaction, retried on
 * transient failures (a new connection each time) with the loop's retry policy, and abandoned at once on
 * shutdown.
 *
 * <p>Not thread-safe: one per worker loop.
 */
final class ProgressStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressStore.class);

    /** One storage operation. */
    private interface Operation<T> {
        T run(Connection connection) throws SQLException;
    }

    /** The loop is stopping: the operation was abandoned. */
    static final class StoppedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoppedException(String message) {
            super(message);
        }
    }

    private final DatabaseEndpoint endpoint;
    private final RetryPolicy retry;
    private final StopSignal stop;
    private Connection connection;

    ProgressStore(DatabaseEndpoint endpoint, RetryPolicy retry, StopSignal stop) {
        this.endpoint = endpoint;
        this.retry = retry;
        this.stop = stop;
    }

    /** Claims a new attempt of {@code chunkId}; empty if the task must be skipped. */
    OptionalInt claim(String chunkId) {
        return call("claim of chunk " + chunkId, c -> SnapshotChunks.claim(c, chunkId));
    }

    /** Marks {@code chunkId} DONE; the window's progress, empty if another attempt completed it first. */
    Optional<WindowProgress> complete(String chunkId, long rows, String highWatermark) {
        return call("completion of chunk " + chunkId, c -> SnapshotChunks.complete(c, chunkId, rows, highWatermark));
    }

    /** Fails {@code window} with {@code error}; false if it was not open any more. */
    boolean fail(WindowKey window, String error) {
        return call("failure of window " + window, c -> SnapshotProgress.fail(c, window, error));
    }

    private <T> T call(String what, Operation<T> operation) {
        Pacer pacer = new Pacer(retry, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
        while (true) {
            try {
                if (connection == null || connection.isClosed()) {
                    connection = endpoint.connect(new Properties());
                }
                return operation.run(connection);
            } catch (SQLException | RuntimeException e) {
                discard();
                if (Failures.classifyStorage(e) != FailureKind.RETRIABLE) {
                    throw new StorageFailureException("Storage " + what + " failed: " + Failures.describe(e), e);
                }
                Duration backoff = pacer.failed("Storage " + what, e);
                LOG.warn("Storage {} failed ({}), retry {} in {} ms", what, Failures.describe(e), pacer.failures(),
                    backoff.toMillis());
                if (!stop.pause(backoff)) {
                    throw new StoppedException("Storage " + what + " abandoned: the worker is stopping");
                }
            }
        }
    }

    private void discard() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Broken already; the next call reconnects.
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        discard();
    }
}
