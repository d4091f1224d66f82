package io.tributary.chaos.workload;

/**
 * How hard the workload writes.
 *
 * @param seed                  the seed every writer's random choices derive from
 * @param writers               concurrent writer threads (each with its own connection)
 * @param transactionsPerSecond target commits per second over all writers (each writer paces itself)
 * @param longTransactions      whether one more writer keeps transactions open for seconds while others commit
 */
public record WorkloadSettings(long seed, int writers, int transactionsPerSecond, boolean longTransactions) {

    public WorkloadSettings {
        if (writers < 1) {
            throw new IllegalArgumentException("writers must be >= 1: " + writers);
        }
        if (transactionsPerSecond < 1) {
            throw new IllegalArgumentException("transactionsPerSecond must be >= 1: " + transactionsPerSecond);
        }
    }
}
