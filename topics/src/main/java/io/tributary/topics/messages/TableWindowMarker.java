package io.tributary.topics.messages;

import java.util.Objects;

/**
 * Opens the snapshot window {@code windowId} of a table. The planner emits it through the WAL, so ingest writes
 * it to every partition of {@code changes} at its commit position: every transaction that can be invisible to a
 * chunk snapshot of this window commits after it, and stream workers keep per-key state for the table from here
 * on (docs/design.md).
 *
 * @param table    the table whose snapshot starts
 * @param lsn      the commit LSN of the marker
 * @param windowId the planner's id of this window, non-empty
 */
public record TableWindowMarker(TableId table, Lsn lsn, String windowId) implements ChangesMessage, Marker {

    public TableWindowMarker {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(lsn, "lsn");
        Checks.windowId(windowId);
    }

    /** The window {@code windowId} of {@code table}, opened at {@code lsn}. */
    public static TableWindowMarker of(TableId table, Lsn lsn, String windowId) {
        return new TableWindowMarker(table, lsn, windowId);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.TABLE_WINDOW;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.TABLE_WINDOW, partition, table);
    }
}
