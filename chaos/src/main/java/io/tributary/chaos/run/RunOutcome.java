package io.tributary.chaos.run;

import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.workload.WorkloadStats;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a {@link RunFlow} found, whatever its faults were; the reports ({@link RunReport} and the infrastructure
 * scenarios') add what their faults did.
 *
 * @param took        wall time
 * @param crashes     processes that exited on their own (restarted); each is a failure
 * @param workload    what the writers did
 * @param writes      what they committed while the faults ran, per phase
 * @param checkpoints checkpoints audited during the run
 * @param mismatches  every mismatch of every check; a clean run has none
 * @param logs        where the processes' logs are
 */
public record RunOutcome(Duration took, List<ProcessExit> crashes, WorkloadStats workload, PhaseWrites writes,
                         int checkpoints, List<Mismatch> mismatches, String logs) {

    private static final int SHOWN_MISMATCHES = 30;

    public RunOutcome {
        crashes = List.copyOf(crashes);
        mismatches = List.copyOf(mismatches);
    }

    /**
     * The lines of a summary after its first: the first mismatches and where the logs are, each line indented;
     * no trailing newline.
     */
    public static String mismatchesAndLogs(List<Mismatch> mismatches, String logs) {
        StringBuilder out = new StringBuilder();
        out.append(mismatches.stream().limit(SHOWN_MISMATCHES).map(m -> "  MISMATCH " + m)
            .collect(Collectors.joining("\n")));
        if (mismatches.size() > SHOWN_MISMATCHES) {
            out.append("\n  ... and ").append(mismatches.size() - SHOWN_MISMATCHES).append(" more");
        }
        return out.append("\n  logs: ").append(logs).toString();
    }
}
