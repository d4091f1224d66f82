package io.tributary.ingest.capture.internals;

/**
 * Whether capture is behind the source's WAL: Debezium handed over a batch of at least {@link #BACKLOG_RECORDS}
 * records, and the age of the newest transaction it ends (its commit time on the source's clock against this
 * process's clock) exceeds the smallest age seen so far by more than {@link #BEHIND_BY_MILLIS}. A small batch (an
 * idle source's heartbeat, a trickle of changes) never counts as behind, however late it arrives. The smallest age
 * absorbs a constant offset between the two clocks; if capture has been behind ever since it started, the smallest
 * age includes that backlog and capture counts as behind only once it falls further back (it errs towards "not
 * behind"). Not thread-safe (the batch handler owns it).
 */
final class SourceLag {

    /** How far past the smallest age seen a transaction's age must be for capture to count as behind, in ms. */
    static final long BEHIND_BY_MILLIS = 1_000L;
    /** The fewest records in a batch that can show a backlog. */
    static final int BACKLOG_RECORDS = 256;

    private long smallestAge = Long.MAX_VALUE;
    private boolean behind;

    /**
     * Takes a batch that ends at least one transaction.
     *
     * @param commitMillis the commit time of the batch's newest transaction on the source (epoch milliseconds)
     * @param nowMillis    this process's current time (epoch milliseconds)
     * @param records      how many records Debezium handed over in the batch
     */
    void batch(long commitMillis, long nowMillis, int records) {
        long age = nowMillis - commitMillis;
        smallestAge = Math.min(smallestAge, age);
        behind = records >= BACKLOG_RECORDS && age - smallestAge > BEHIND_BY_MILLIS;
    }

    /** Whether the last batch taken showed capture behind the source; false before any. */
    boolean behind() {
        return behind;
    }
}
