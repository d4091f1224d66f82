package io.tributary.topics.messages;

import java.util.Objects;

/**
 * The snapshot window {@code windowId} of {@code table} consists of exactly {@code chunkCount} chunks (distinct
 * chunk ids). The planner writes it to every partition of {@code snapshot-rows} once the window's chunks are
 * known; a stream worker considers the table done in its partition when it has seen this plan and
 * {@code chunkCount} distinct chunks of the window done ({@link ChunkDone}). An empty table still has one chunk.
 *
 * @param table      the table
 * @param windowId   the snapshot window
 * @param chunkCount the number of chunks planned, {@code >= 1}
 */
public record TablePlan(TableId table, String windowId, int chunkCount) implements SnapshotRowsMessage, Marker {

    public TablePlan {
        Objects.requireNonNull(table, "table");
        Checks.windowId(windowId);
        if (chunkCount < 1) {
            throw new IllegalArgumentException("A table plan has at least one chunk, got " + chunkCount);
        }
    }

    /** The plan of window {@code windowId} of {@code table}: {@code chunkCount} chunks. */
    public static TablePlan of(TableId table, String windowId, int chunkCount) {
        return new TablePlan(table, windowId, chunkCount);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.TABLE_PLAN;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.TABLE_PLAN, partition, table);
    }
}
