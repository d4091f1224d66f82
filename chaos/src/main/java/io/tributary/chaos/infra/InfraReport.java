package io.tributary.chaos.infra;

import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.run.PhaseWrites;
import io.tributary.chaos.run.RunOutcome;
import io.tributary.chaos.workload.WorkloadStats;
import java.time.Duration;
import java.util.List;

/**
 * The outcome of one infrastructure scenario run.
 *
 * @param scenario    the scenario's name
 * @param seed        the run's seed
 * @param took        wall time
 * @param faults      faults injected
 * @param crashes     processes that exited on their own (restarted); each is a failure
 * @param workload    what the writers did
 * @param writes      what they committed while the faults ran, per phase
 * @param checkpoints checkpoints audited during the run
 * @param mismatches  every mismatch of every check; a clean run has none
 * @param logs        where the processes' logs are
 */
public record InfraReport(String scenario, long seed, Duration took, List<InfraFault> faults,
                          List<ProcessExit> crashes, WorkloadStats workload, PhaseWrites writes,
                          int checkpoints, List<Mismatch> mismatches, String logs) {

    public InfraReport {
        faults = List.copyOf(faults);
        crashes = List.copyOf(crashes);
        mismatches = List.copyOf(mismatches);
    }

    /** No mismatch and no crash. */
    public boolean clean() {
        return mismatches.isEmpty() && crashes.isEmpty();
    }

    /** A multi-line summary: scenario, seed, faults, workload, crashes with their log tails, first mismatches. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append("infra scenario ").append(scenario).append(" seed=").append(seed).append(" took ")
            .append(took.toSeconds()).append(" s: ").append(faults.size()).append(" faults, ").append(crashes.size())
            .append(" crashes, ").append(checkpoints).append(" checkpoints audited, ").append(mismatches.size())
            .append(" mismatches\n");
        out.append("  workload: ").append(workload).append("; ").append(writes).append('\n');
        faults.forEach(f -> out.append("  fault ").append(f).append('\n'));
        crashes.forEach(c -> out.append("  CRASH ").append(c).append('\n'));
        out.append(RunOutcome.mismatchesAndLogs(mismatches, logs)).append("\n  repeat with -Dchaos.seed=").append(seed);
        return out.toString();
    }
}
