package io.tributary.ingest.capture.internals;

/**
 * Extends the 32-bit transaction ids pgoutput reports to the 64-bit ({@code xid8}) ids of snapshots. Starts from a
 * 64-bit id read from the server when capture starts ({@code pg_snapshot_xmax(pg_current_snapshot())}); each id
 * is placed at the 64-bit value nearest to the previous one (Postgres keeps every live transaction id within
 * 2^31 of any other, and the slot replays transactions in commit order). Not thread-safe.
 */
final class XidWidener {

    private long reference;

    /** A widener starting from {@code reference}, a recent 64-bit id of the server. */
    XidWidener(long reference) {
        if (reference < 0) {
            throw new IllegalArgumentException("reference must be >= 0, got " + reference);
        }
        this.reference = reference;
    }

    /** The 64-bit id of 32-bit id {@code xid32}. */
    long widen(long xid32) {
        if (xid32 < 0 || xid32 > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("Not a 32-bit transaction id: " + xid32);
        }
        int delta = (int) (xid32 - (reference & 0xFFFFFFFFL));
        long full = reference + delta;
        if (full < 0) {
            throw new IllegalArgumentException("Transaction id " + xid32 + " lies before the first epoch relative"
                + " to " + reference);
        }
        reference = full;
        return full;
    }
}
