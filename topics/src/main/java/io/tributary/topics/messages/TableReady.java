package io.tributary.topics.messages;

import java.util.Objects;

/**
 * Every chunk of window {@code windowId} of {@code table} is merged into this partition of {@code rows}. A group's
 * checkpoint may include the table once it is ready in every partition and the checkpoint's barrier LSN is
 * {@code >= highWatermark} (docs/design.md). Written by a stream worker into its own partition.
 *
 * @param table         the table
 * @param windowId      the snapshot window that completed
 * @param highWatermark the highest chunk high watermark of the window
 */
public record TableReady(TableId table, String windowId, Lsn highWatermark) implements RowsMessage, Marker {

    public TableReady {
        Objects.requireNonNull(table, "table");
        Checks.windowId(windowId);
        Objects.requireNonNull(highWatermark, "highWatermark");
    }

    /** {@code table} is ready as of window {@code windowId}, consistent from {@code highWatermark} on. */
    public static TableReady of(TableId table, String windowId, Lsn highWatermark) {
        return new TableReady(table, windowId, highWatermark);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.TABLE_READY;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.TABLE_READY, partition, table);
    }
}
