package io.tributary.api.stream;

import io.tributary.storage.compact.CompactionFence;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Reads the served group's compaction data fence ({@link CompactionFence}) for every stream of the process, each
 * answer from a read that started after the caller asked: a stream asks once it has read and sent all of a
 * checkpoint's ops, and an older answer could miss a compaction that rewrote ops it read. One read is under way
 * at a time; the streams that ask meanwhile wait and share the next one, so a burst of streams finishing the same
 * checkpoint costs one or two statements. Thread-safe.
 */
final class FenceReader {

    private final long groupId;
    private final Object lock = new Object();
    private CompletableFuture<Long> next;
    private boolean reading;

    FenceReader(long groupId) {
        this.groupId = groupId;
    }

    /** Whether a compaction rewrote ops up to a checkpoint after {@code checkpoint}: then it must not complete. */
    boolean passed(StoragePool pool, long checkpoint) throws SQLException {
        return read(pool) > checkpoint;
    }

    private long read(StoragePool pool) throws SQLException {
        CompletableFuture<Long> mine;
        synchronized (lock) {
            if (next == null) {
                next = new CompletableFuture<>();
            }
            mine = next;
            try {
                while (!mine.isDone() && !(next == mine && !reading)) {
                    lock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("Interrupted while reading the compaction fence", "57014", e);
            }
            if (!mine.isDone()) {
                reading = true;
                next = null;
            }
        }
        if (!mine.isDone()) {
            try {
                mine.complete(pool.withConnection(c -> CompactionFence.data(c, groupId)));
            } catch (SQLException | RuntimeException e) {
                mine.completeExceptionally(e);
            } finally {
                synchronized (lock) {
                    reading = false;
                    lock.notifyAll();
                }
            }
        }
        try {
            return mine.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw e;
        }
    }
}
