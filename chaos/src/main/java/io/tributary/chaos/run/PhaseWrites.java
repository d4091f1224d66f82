package io.tributary.chaos.run;

/**
 * Transactions the workload committed while the faults ran, per phase: from the start of the faults until the
 * newest group became ACTIVE, and from then until the faults stopped. A run whose writes all failed or stalled
 * while faults ran tested recovery of an idle source only.
 *
 * @param snapshot  committed from the start of the faults until the group became ACTIVE (all of them if it never
 *                  did)
 * @param streaming committed from the group becoming ACTIVE until the faults stopped
 */
public record PhaseWrites(long snapshot, long streaming) {

    public PhaseWrites {
        if (snapshot < 0 || streaming < 0) {
            throw new IllegalArgumentException("Committed transactions are counted from 0: " + snapshot + ", "
                + streaming);
        }
    }

    /** From three readings of the workload's committed count: faults started, group ACTIVE, faults stopped. */
    public static PhaseWrites between(long faultsStarted, long active, long faultsStopped) {
        return new PhaseWrites(active - faultsStarted, faultsStopped - active);
    }

    @Override
    public String toString() {
        return snapshot + " committed during the snapshot's faults, " + streaming + " during streaming's";
    }
}
