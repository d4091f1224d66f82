package io.tributary.chaos.infra;

import io.tributary.chaos.run.InjectedFault;
import io.tributary.chaos.run.Phase;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of a {@link CombinedRun}.
 *
 * @param run            the run as an infrastructure report: every fault of every source in time order (process
 *                       faults marked {@code [processes]}, each meant for its planned phase; service faults marked
 *                       with their scenario), crashes, checkpoints audited, mismatches
 * @param processFaults  the process faults as they fired, skipped ones included
 * @param skippedProcessFaults planned process faults that did not fire or found nothing to act on
 * @param serviceFaults  each scenario's faults, by scenario name in the run's order
 */
public record CombinedReport(InfraReport run, List<InjectedFault> processFaults, int skippedProcessFaults,
                             Map<String, List<InfraFault>> serviceFaults) {

    public CombinedReport {
        Objects.requireNonNull(run, "run");
        processFaults = List.copyOf(processFaults);
        Map<String, List<InfraFault>> copy = new LinkedHashMap<>();
        serviceFaults.forEach((name, faults) -> copy.put(name, List.copyOf(faults)));
        serviceFaults = Collections.unmodifiableMap(copy);
    }

    /** Process faults that did something. */
    public long appliedProcessFaults() {
        return processFaults.stream().filter(InjectedFault::applied).count();
    }

    /** Process faults that did something while the run was in {@code phase}. */
    public long appliedProcessFaults(Phase phase) {
        return processFaults.stream().filter(InjectedFault::applied).filter(f -> f.hit() == phase).count();
    }
}
