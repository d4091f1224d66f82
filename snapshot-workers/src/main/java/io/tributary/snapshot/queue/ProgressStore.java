package io.tributary.snapshot.queue;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.RetriesExhaustedException;
import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.postgres.StoppedException;
import io.tributary.snapshot.internals.Failures;
import io.tributary.storage.progress.ChunkCompletion;
import io.tributary.storage.progress.SnapshotChunks;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowProgress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One worker loop's access to chunk progress in storage: each call is one short transaction, retried on
 * transient failures (a new connection each time) with the loop's retry policy, and abandoned at once on
 * shutdown ({@link StoppedException}). A fatal failure is a {@link StorageFailureException}.
 *
 * <p>Not thread-safe: one per worker loop.
 */
final class ProgressStore implements AutoCloseable {

    /** One storage operation. */
    private interface Operation<T> {
        T run(Connection connection) throws SQLException;
    }

    private final LazyConnection connection;
    private final Retrier retrier;

    ProgressStore(PgEndpoint endpoint, RetryPolicy retry, StopSignal stop) {
        this.connection = new LazyConnection(endpoint);
        this.retrier = Retrier.of(retry, stop);
    }

    /** Claims a new attempt of {@code chunkId}; empty if the task must be skipped. */
    OptionalInt claim(String chunkId) {
        return call("claim of chunk " + chunkId, c -> SnapshotChunks.claim(c, chunkId));
    }

    /** Claims a new attempt of each of {@code chunkIds} in one statement; per chunk claimed, its attempt. */
    Map<String, Integer> claimAll(List<String> chunkIds) {
        return call("claim of " + chunkIds.size() + " chunks (" + chunkIds.get(0) + " ...)",
            c -> SnapshotChunks.claimAll(c, chunkIds));
    }

    /**
     * Marks {@code chunks} DONE in one statement; per chunk this completed, its window's progress (a chunk another
     * attempt completed first is absent).
     */
    Map<String, WindowProgress> complete(List<ChunkCompletion> chunks) {
        return call("completion of " + chunks.size() + " chunks (" + chunks.get(0).chunkId() + " ...)",
            c -> SnapshotChunks.completeAll(c, chunks));
    }

    /** Fails {@code window} with {@code error}; false if it was not open any more. */
    boolean fail(WindowKey window, String error) {
        return call("failure of window " + window, c -> SnapshotProgress.fail(c, window, error));
    }

    private <T> T call(String what, Operation<T> operation) {
        try {
            return retrier.call("Storage " + what, () -> {
                try {
                    return operation.run(connection.get());
                } catch (SQLException | RuntimeException e) {
                    connection.discard();
                    throw e;
                }
            });
        } catch (StoppedException | RetriesExhaustedException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageFailureException("Storage " + what + " failed: " + Failures.describe(e), e);
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
