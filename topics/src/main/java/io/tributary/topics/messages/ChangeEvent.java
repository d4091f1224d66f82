package io.tributary.topics.messages;

import java.util.Objects;
import java.util.Optional;

/**
 * One row change captured from the WAL, on {@code changes}. Per key, events appear in source commit order,
 * ordered by {@link #position()}.
 *
 * <p>{@code txId} is the 64-bit ({@code xid8}) transaction id, in the same domain as the {@link PgSnapshot}s of
 * chunk reads, so the merge can test {@code snapshot.isVisible(txId)}; ingest widens pgoutput's 32-bit ids with
 * {@link PgSnapshot#widenXid(long, long)}.
 *
 * @param table the source table
 * @param op    what happened to the row
 * @param pk    the row's primary key
 * @param row   the full new row for {@code INSERT} and {@code UPDATE}; empty for {@code DELETE}
 * @param lsn   the commit LSN of the transaction
 * @param seq   the 0-based position of this change within its transaction
 * @param txId  the 64-bit transaction id, {@code >= 0}
 */
public record ChangeEvent(TableId table, ChangeOp op, KeyValues pk, Optional<RowJson> row, Lsn lsn, long seq,
                          long txId) implements ChangesMessage, RowKeyed {

    public ChangeEvent {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(pk, "pk");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(lsn, "lsn");
        Checks.nonNegative("seq", seq);
        Checks.nonNegative("txId", txId);
        if (row.isPresent() == (op == ChangeOp.DELETE)) {
            throw new IllegalArgumentException(op == ChangeOp.DELETE
                ? "A delete event carries no row" : "An " + op.wireName() + " event needs the full new row");
        }
    }

    /** A new row. */
    public static ChangeEvent insert(TableId table, KeyValues pk, RowJson row, Lsn lsn, long seq, long txId) {
        return new ChangeEvent(table, ChangeOp.INSERT, pk, Optional.of(row), lsn, seq, txId);
    }

    /** A changed row, with its full new state. */
    public static ChangeEvent update(TableId table, KeyValues pk, RowJson row, Lsn lsn, long seq, long txId) {
        return new ChangeEvent(table, ChangeOp.UPDATE, pk, Optional.of(row), lsn, seq, txId);
    }

    /** A removed row. */
    public static ChangeEvent delete(TableId table, KeyValues pk, Lsn lsn, long seq, long txId) {
        return new ChangeEvent(table, ChangeOp.DELETE, pk, Optional.empty(), lsn, seq, txId);
    }

    /** The event's place in source commit order: {@code (lsn, seq)}. */
    public StreamPosition position() {
        return new StreamPosition(lsn, seq);
    }
}
