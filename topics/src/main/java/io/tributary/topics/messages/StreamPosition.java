package io.tributary.topics.messages;

import java.util.Comparator;
import java.util.Objects;

/**
 * A row version from the WAL stream: the commit LSN of its transaction and its sequence number within that
 * transaction. Positions order by {@code (lsn, seq)}, which is source commit order.
 *
 * @param lsn the commit LSN of the transaction
 * @param seq the 0-based position of the change in its transaction
 */
public record StreamPosition(Lsn lsn, long seq) implements SourcePosition, Comparable<StreamPosition> {

    private static final Comparator<StreamPosition> ORDER =
        Comparator.comparing(StreamPosition::lsn).thenComparingLong(StreamPosition::seq);

    public StreamPosition {
        Objects.requireNonNull(lsn, "lsn");
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0, got " + seq);
        }
    }

    /** The position of change {@code seq} of the transaction committed at {@code lsn}. */
    public static StreamPosition of(Lsn lsn, long seq) {
        return new StreamPosition(lsn, seq);
    }

    @Override
    public String toText() {
        return "s:" + lsn + ":" + seq;
    }

    @Override
    public int compareTo(StreamPosition other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return toText();
    }
}
