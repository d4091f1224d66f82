package io.tributary.stream.merge;

/**
 * Where one snapshot window of a table stands in one partition.
 *
 * <pre>
 *   (first seen on snapshot-rows) PENDING --window marker--> OPEN --every chunk done--> READY
 *   (first seen on changes)                                  OPEN --newer window marker--> SUPERSEDED
 * </pre>
 *
 * A window is PENDING while only its plan or chunk-done markers have arrived (the two inputs interleave freely,
 * so they can precede the window marker); OPEN from its marker on, when the partition keeps per-key state for the
 * table; READY once its plan and every planned chunk are done, when {@code table-ready} is emitted; SUPERSEDED
 * when the marker of a newer window of the same table arrives first. READY and SUPERSEDED are final: rows and
 * markers of a closed window are dropped.
 */
public enum WindowPhase {

    /** Known from {@code snapshot-rows} only; its marker has not arrived. */
    PENDING,

    /** Its marker arrived; the partition tracks the table's keys. At most one window per table is open. */
    OPEN,

    /** Every planned chunk is done in this partition and {@code table-ready} was emitted. Final. */
    READY,

    /** A newer window of the table opened before this one was ready. Final. */
    SUPERSEDED;

    /** Whether the window is over: its late rows and markers are dropped. */
    public boolean isClosed() {
        return this == READY || this == SUPERSEDED;
    }

    /**
     * The phase {@code next}, if moving there from this phase is legal.
     *
     * @throws IllegalStateException for any other transition
     */
    public WindowPhase moveTo(WindowPhase next) {
        boolean legal = this == PENDING && next == OPEN
            || this == OPEN && (next == READY || next == SUPERSEDED);
        if (!legal) {
            throw new IllegalStateException("A snapshot window cannot move from " + this + " to " + next);
        }
        return next;
    }
}
