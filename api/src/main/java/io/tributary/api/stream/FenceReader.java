package io.tributary.api.stream;

import io.tributary.storage.compact.CompactionFence;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Reads the served group's compaction data fence ({@link CompactionFence}) for every stream of the process, each
 * answer from a read that started after the caller asked: a stream asks once it has read and sent all of a
 * checkpoint's ops, and an older answer could miss a compaction that rewrote ops it read. Streams that ask while a
 * read is under way share the next read, so a burst of streams finishing the same checkpoint costs one or two
 * statements. Thread-safe.
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
        boolean lead = false;
        synchronized (lock) {
            if (next == null) {
                next = new CompletableFuture<>();
            }
            mine = next;
            if (!reading) {
                reading = true;
                next = null;
                lead = true;
            }
        }
        if (lead) {
            CompletableFuture<Long> batch = mine;
            while (batch != null) {
                try {
                    batch.complete(pool.withConnection(c -> CompactionFence.data(c, groupId)));
                } catch (SQLException | RuntimeException e) {
                    batch.completeExceptionally(e);
                }
                synchronized (lock) {
                    batch = next;
                    next = null;
                    reading = batch != null;
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
