package io.tributary.topics.messages;

import java.util.Objects;

/**
 * The current state of one source row, on {@code rows}: per key, resolved rows and deletes appear in source
 * order; compaction keeps the newest.
 *
 * @param table  the source table
 * @param pk     the row's primary key
 * @param row    the row, byte for byte as its producer (ingest or a snapshot chunk) encoded it
 * @param source where this version came from
 */
public record ResolvedRow(TableId table, KeyValues pk, RowJson row, SourcePosition source)
    implements RowsMessage, RowKeyed {

    public ResolvedRow {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(pk, "pk");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(source, "source");
    }

    /** The row of an {@code INSERT} or {@code UPDATE} event. */
    public static ResolvedRow of(ChangeEvent event) {
        return new ResolvedRow(event.table(), event.pk(), event.row().orElseThrow(
            () -> new IllegalArgumentException("A delete event resolves to a ResolvedDelete, not a row")),
            event.position());
    }

    /** The row a snapshot chunk read. */
    public static ResolvedRow of(SnapshotRow row) {
        return new ResolvedRow(row.table(), row.pk(), row.row(), row.position());
    }
}
