package io.tributary.topics.messages;

import java.util.Objects;

/**
 * One row as attempt {@code attempt} of chunk {@code chunkId} of window {@code windowId} read it under snapshot
 * {@code snapshot}, on {@code snapshot-rows}. The merge emits it only if its window is not closed and no stream
 * event of the key from a transaction invisible in {@code snapshot} was emitted before (docs/design.md).
 *
 * @param table    the source table
 * @param pk       the row's primary key
 * @param row      the row as read
 * @param chunkId  the chunk that read it
 * @param windowId the chunk's snapshot window
 * @param attempt  the attempt of that chunk, {@code >= 1}
 * @param snapshot the chunk's snapshot ({@code pg_current_snapshot()} in the read transaction)
 */
public record SnapshotRow(TableId table, KeyValues pk, RowJson row, String chunkId, String windowId, int attempt,
                          PgSnapshot snapshot) implements SnapshotRowsMessage, RowKeyed {

    public SnapshotRow {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(pk, "pk");
        Objects.requireNonNull(row, "row");
        Checks.chunkId(chunkId);
        Checks.windowId(windowId);
        Checks.attempt(attempt);
        Objects.requireNonNull(snapshot, "snapshot");
    }

    /** The row {@code pk} of the task's table as the task's attempt read it under {@code snapshot}. */
    public static SnapshotRow of(ChunkTask task, KeyValues pk, RowJson row, PgSnapshot snapshot) {
        return new SnapshotRow(task.table(), pk, row, task.chunkId(), task.windowId(), task.attempt(), snapshot);
    }

    /** Where the row came from, for {@link ResolvedRow}. */
    public SnapshotPosition position() {
        return new SnapshotPosition(chunkId, attempt);
    }
}
