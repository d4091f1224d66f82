package io.tributary.topics.messages;

import java.util.Objects;

/**
 * Attempt {@code attempt} of chunk {@code chunkId} finished: every row it read is before this marker in every
 * partition of {@code snapshot-rows}. Snapshot workers write it to every partition after the chunk's rows.
 *
 * @param chunkId       the chunk
 * @param table         its table
 * @param windowId      its snapshot window
 * @param attempt       the attempt that finished, {@code >= 1}
 * @param highWatermark {@code pg_current_wal_insert_lsn()} read after the chunk's rows, in the read transaction
 * @param rowCount      rows the attempt read (over all partitions), {@code >= 0}
 */
public record ChunkDone(String chunkId, TableId table, String windowId, int attempt, Lsn highWatermark,
                        long rowCount) implements SnapshotRowsMessage, Marker {

    public ChunkDone {
        Checks.chunkId(chunkId);
        Objects.requireNonNull(table, "table");
        Checks.windowId(windowId);
        Checks.attempt(attempt);
        Objects.requireNonNull(highWatermark, "highWatermark");
        Checks.nonNegative("rowCount", rowCount);
    }

    /** The done marker of {@code task}. */
    public static ChunkDone of(ChunkTask task, Lsn highWatermark, long rowCount) {
        return new ChunkDone(task.chunkId(), task.table(), task.windowId(), task.attempt(), highWatermark, rowCount);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.CHUNK_DONE;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.CHUNK_DONE, partition, chunkId);
    }
}
