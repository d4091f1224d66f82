package io.tributary.topics.messages;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A Postgres MVCC snapshot as {@code pg_current_snapshot()} returns it: {@code xmin:xmax:xip,xip,...} with 64-bit
 * (epoch-extended, {@code xid8}) transaction ids. A chunk read carries the snapshot it was read under.
 *
 * <p>Visibility ({@link #isVisible(long)}) is the rule of docs/design.md: a transaction id {@code x} is
 * visible iff {@code x < xmax} and {@code x} is not in {@code xip}; ids below {@code xmin} are therefore always
 * visible. Every transaction id compared with a snapshot must be in the same 64-bit domain (see
 * {@link #widenXid(long, long)} for 32-bit ids such as pgoutput's).
 *
 * @param xmin the earliest transaction id still active, {@code 0 <= xmin <= xmax}
 * @param xmax one past the highest completed transaction id
 * @param xip  the transaction ids in progress, ascending, distinct, each in {@code [xmin, xmax)}; unmodifiable
 */
public record PgSnapshot(long xmin, long xmax, List<Long> xip) {

    public PgSnapshot {
        if (xmin < 0 || xmax < xmin) {
            throw new IllegalArgumentException("A snapshot needs 0 <= xmin <= xmax, got " + xmin + ":" + xmax);
        }
        List<Long> sorted = new ArrayList<>(xip);
        Collections.sort(sorted);
        for (int i = 0; i < sorted.size(); i++) {
            long x = sorted.get(i);
            if (x < xmin || x >= xmax || i > 0 && sorted.get(i - 1) == x) {
                throw new IllegalArgumentException("In-progress transaction ids of a snapshot must be distinct and"
                    + " in [xmin, xmax) = [" + xmin + ", " + xmax + "), got " + xip);
            }
        }
        xip = Collections.unmodifiableList(sorted);
    }

    /** The snapshot {@code xmin:xmax:xip}. */
    public static PgSnapshot of(long xmin, long xmax, List<Long> xip) {
        return new PgSnapshot(xmin, xmax, xip);
    }

    /**
     * Parses Postgres's text form {@code xmin:xmax:xip,xip} ({@code xip} may be empty: {@code 10:10:}).
     *
     * @throws IllegalArgumentException if {@code text} is not a valid snapshot
     */
    public static PgSnapshot parse(String text) {
        int first = text.indexOf(':');
        int second = first < 0 ? -1 : text.indexOf(':', first + 1);
        if (first < 0 || second < 0 || text.endsWith(",")) {
            throw new IllegalArgumentException("Not a snapshot (expected 'xmin:xmax:xip,...'): '" + text + "'");
        }
        try {
            long xmin = Long.parseLong(text, 0, first, 10);
            long xmax = Long.parseLong(text, first + 1, second, 10);
            List<Long> xip = new ArrayList<>();
            int start = second + 1;
            while (start < text.length()) {
                int comma = text.indexOf(',', start);
                int end = comma < 0 ? text.length() : comma;
                xip.add(Long.parseLong(text, start, end, 10));
                start = comma < 0 ? text.length() : comma + 1;
            }
            return new PgSnapshot(xmin, xmax, xip);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Not a snapshot (expected 'xmin:xmax:xip,...'): '" + text + "'", e);
        }
    }

    /** Whether the effects of transaction {@code xid} (64-bit) are visible in this snapshot. */
    public boolean isVisible(long xid) {
        if (xid < xmin) {
            return true;
        }
        return xid < xmax && Collections.binarySearch(xip, xid) < 0;
    }

    /**
     * Extends a 32-bit transaction id (as pgoutput and Debezium report it) to the 64-bit {@code xid8} domain of
     * snapshots, given a recent 64-bit id from the same server ({@code pg_current_xact_id()} or a snapshot's
     * {@code xmax}) that is not older than {@code xid32} by more than 2^31 transactions.
     *
     * @param xid32           the 32-bit id, {@code 0 <= xid32 < 2^32}
     * @param recentFullXid   a 64-bit id taken at or after the transaction of {@code xid32}
     * @return the 64-bit id, at most {@code recentFullXid}
     */
    public static long widenXid(long xid32, long recentFullXid) {
        if (xid32 < 0 || xid32 > 0xFFFFFFFFL || recentFullXid < 0) {
            throw new IllegalArgumentException("Cannot widen xid " + xid32 + " against " + recentFullXid);
        }
        long candidate = (recentFullXid & ~0xFFFFFFFFL) | xid32;
        if (candidate <= recentFullXid) {
            return candidate;
        }
        if (candidate < 1L << 32) {
            throw new IllegalArgumentException("xid " + xid32 + " is after the reference " + recentFullXid
                + ": the reference must be taken at or after the transaction");
        }
        return candidate - (1L << 32);
    }

    /** Postgres's text form, e.g. {@code 10:20:12,15}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(24).append(xmin).append(':').append(xmax).append(':');
        for (int i = 0; i < xip.size(); i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(xip.get(i));
        }
        return text.toString();
    }
}
