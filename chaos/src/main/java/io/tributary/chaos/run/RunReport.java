package io.tributary.chaos.run;

import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.workload.WorkloadStats;
import java.time.Duration;
import java.util.List;

/**
 * The outcome of one run.
 *
 * @param seed        the run's seed (repeat it with {@code ./chaos.sh --seed N})
 * @param took        wall time
 * @param faults      faults fired (see {@link InjectedFault#applied()})
 * @param skipped     planned faults that did not fire or found nothing to act on
 * @param crashes     processes that exited on their own (restarted); each is a failure
 * @param workload    what the writers did
 * @param writes      what they committed while the faults ran, per phase
 * @param checkpoints checkpoints audited during the run
 * @param mismatches  every mismatch of every check; a clean run has none
 * @param logs        where the processes' logs are
 */
public record RunReport(long seed, Duration took, List<InjectedFault> faults, int skipped, List<ProcessExit> crashes,
                        WorkloadStats workload, PhaseWrites writes, int checkpoints, List<Mismatch> mismatches,
                        String logs) {

    public RunReport {
        faults = List.copyOf(faults);
        crashes = List.copyOf(crashes);
        mismatches = List.copyOf(mismatches);
    }

    /** The report of a run with process faults: what {@code flow} found, and what the faults did. */
    public static RunReport of(long seed, RunOutcome flow, List<InjectedFault> faults, int skipped) {
        return new RunReport(seed, flow.took(), faults, skipped, flow.crashes(), flow.workload(), flow.writes(),
            flow.checkpoints(), flow.mismatches(), flow.logs());
    }

    /** How many faults did something. */
    public int applied() {
        return (int) faults.stream().filter(InjectedFault::applied).count();
    }

    /** The applied faults that hit another phase than the one they were planned for. */
    public List<InjectedFault> offPhase() {
        return faults.stream().filter(InjectedFault::applied).filter(f -> f.hit() != f.fault().phase()).toList();
    }

    /** No mismatch and no crash. */
    public boolean clean() {
        return mismatches.isEmpty() && crashes.isEmpty();
    }

    /** A multi-line summary: seed, faults, workload, checks, and the first mismatches. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append("chaos run seed=").append(seed).append(" took ").append(took.toSeconds()).append(" s: ")
            .append(applied()).append(" faults (").append(skipped).append(" skipped), ")
            .append(crashes.size()).append(" crashes, ").append(checkpoints).append(" checkpoints audited, ")
            .append(mismatches.size()).append(" mismatches\n");
        out.append("  workload: ").append(workload).append("; ").append(writes).append('\n');
        faults.forEach(f -> out.append("  fault ").append(f).append('\n'));
        crashes.forEach(c -> out.append("  CRASH ").append(c.name()).append(" exit ").append(c.exitCode())
            .append('\n'));
        out.append(RunOutcome.mismatchesAndLogs(mismatches, logs)).append("\n  repeat: ./chaos.sh --seed ")
            .append(seed);
        return out.toString();
    }
}
