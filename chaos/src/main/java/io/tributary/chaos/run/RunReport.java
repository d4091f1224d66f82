package io.tributary.chaos.run;

import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.workload.WorkloadStats;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The outcome of one run.
 *
 * @param seed        the run's seed (repeat it with {@code ./chaos.sh --seed N})
 * @param took        wall time
 * @param faults      faults fired (see {@link InjectedFault#applied()})
 * @param skipped     planned faults that did not fire or found nothing to act on
 * @param crashes     processes that exited on their own (restarted); each is a failure
 * @param workload    what the writers did
 * @param checkpoints checkpoints audited during the run
 * @param mismatches  every mismatch of every check; a clean run has none
 * @param logs        where the processes' logs are
 */
public record RunReport(long seed, Duration took, List<InjectedFault> faults, int skipped, List<ProcessExit> crashes,
                        WorkloadStats workload, int checkpoints, List<Mismatch> mismatches, String logs) {

    private static final int SHOWN_MISMATCHES = 30;

    public RunReport {
        faults = List.copyOf(faults);
        crashes = List.copyOf(crashes);
        mismatches = List.copyOf(mismatches);
    }

    /** How many faults did something. */
    public int applied() {
        return (int) faults.stream().filter(InjectedFault::applied).count();
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
        out.append("  workload: ").append(workload).append('\n');
        faults.forEach(f -> out.append("  fault ").append(f).append('\n'));
        crashes.forEach(c -> out.append("  CRASH ").append(c.name()).append(" exit ").append(c.exitCode())
            .append('\n'));
        out.append(mismatches.stream().limit(SHOWN_MISMATCHES).map(m -> "  MISMATCH " + m)
            .collect(Collectors.joining("\n")));
        if (mismatches.size() > SHOWN_MISMATCHES) {
            out.append("\n  ... and ").append(mismatches.size() - SHOWN_MISMATCHES).append(" more");
        }
        out.append("\n  logs: ").append(logs).append("\n  repeat: ./chaos.sh --seed ").append(seed);
        return out.toString();
    }
}
