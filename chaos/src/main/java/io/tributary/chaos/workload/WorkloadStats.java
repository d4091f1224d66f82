package io.tributary.chaos.workload;

import java.util.List;

/**
 * What the workload did.
 *
 * @param committed  transactions committed
 * @param rolledBack transactions rolled back on an expected conflict (unique violation, deadlock, serialization)
 * @param failed     transactions that failed otherwise (e.g. the source was unreachable)
 * @param errors     the first few unexpected errors
 */
public record WorkloadStats(long committed, long rolledBack, long failed, List<String> errors) {

    public WorkloadStats {
        errors = List.copyOf(errors);
    }

    @Override
    public String toString() {
        return committed + " committed, " + rolledBack + " rolled back on conflicts, " + failed + " failed"
            + (errors.isEmpty() ? "" : " " + errors);
    }
}
