package io.tributary.ingest.capture.internals;

/**
 * Whether capture is behind the source's WAL: the age of the newest transaction a batch ends (its commit time on the
 * source's clock against this process's clock) exceeds the smallest age seen so far by more than
 * {@link #BEHIND_BY_MILLIS}. The smallest age absorbs a constant offset between the two clocks; if capture has been
 * behind ever since it started, the smallest age includes that backlog and capture counts as behind only once it
 * falls further back (it errs towards "not behind"). Not thread-safe (the batch handler owns it).
 */
final class SourceLag {

    /** How far past the smallest age seen a transaction's age must be for capture to count as behind, in ms. */
    static final long BEHIND_BY_MILLIS = 1_000L;

    private long smallestAge = Long.MAX_VALUE;
    private boolean behind;

    /**
     * Takes the commit time of the newest transaction of a batch.
     *
     * @param commitMillis the transaction's commit time on the source (epoch milliseconds)
     * @param nowMillis    this process's current time (epoch milliseconds)
     */
    void committed(long commitMillis, long nowMillis) {
        long age = nowMillis - commitMillis;
        smallestAge = Math.min(smallestAge, age);
        behind = age - smallestAge > BEHIND_BY_MILLIS;
    }

    /**
     * Whether the newest transaction taken was more than {@link #BEHIND_BY_MILLIS} older than the smallest age;
     * false before any.
     */
    boolean behind() {
        return behind;
    }
}
