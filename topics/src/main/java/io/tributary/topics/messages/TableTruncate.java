package io.tributary.topics.messages;

import java.util.Objects;

/**
 * {@code TRUNCATE} of a table, at its place in commit order. A truncation concerns every key of the table, so it
 * is a marker: ingest writes it to every partition of {@code changes}, and stream workers forward it into the
 * same partition of {@code rows}, where it means "every row of this table written before this record in this
 * partition is gone". (Replaying a compacted {@code rows} therefore still converges: rows older than the truncate
 * come before it, rows written after it come after it.)
 *
 * @param table the truncated table
 * @param lsn   the commit LSN of the transaction
 * @param seq   the 0-based position of the truncation within its transaction
 * @param txId  the 64-bit transaction id, {@code >= 0}
 */
public record TableTruncate(TableId table, Lsn lsn, long seq, long txId)
    implements ChangesMessage, RowsMessage, Marker {

    public TableTruncate {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(lsn, "lsn");
        Checks.nonNegative("seq", seq);
        Checks.nonNegative("txId", txId);
    }

    /** The truncation of {@code table}, change {@code seq} of transaction {@code txId} committed at {@code lsn}. */
    public static TableTruncate of(TableId table, Lsn lsn, long seq, long txId) {
        return new TableTruncate(table, lsn, seq, txId);
    }

    /** The truncation's place in source commit order. */
    public StreamPosition position() {
        return new StreamPosition(lsn, seq);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.TABLE_TRUNCATE;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.TABLE_TRUNCATE, partition, table);
    }
}
