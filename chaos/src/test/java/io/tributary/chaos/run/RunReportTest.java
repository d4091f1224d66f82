package io.tributary.chaos.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.workload.WorkloadStats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunReportTest {

    @Test
    void aFaultThatHitAnotherPhaseThanPlannedIsOffPhase() {
        InjectedFault onTime = injected(Phase.SNAPSHOT, Phase.SNAPSHOT, "kill -9 ingest-1.1");
        InjectedFault late = injected(Phase.SNAPSHOT, Phase.STREAMING, "kill -9 stream-worker-1.1");
        InjectedFault skipped = injected(Phase.SNAPSHOT, Phase.STREAMING, InjectedFault.SKIPPED + "remove");

        RunReport report = report(List.of(onTime, late, skipped));

        assertThat(report.offPhase()).containsExactly(late);
        assertThat(report.applied()).isEqualTo(2);
    }

    @Test
    void theSummaryShowsTheWritesDuringEachPhasesFaults() {
        assertThat(report(List.of()).summary()).contains("7 committed during the snapshot's faults, 9 during"
            + " streaming's");
    }

    private static InjectedFault injected(Phase planned, Phase hit, String outcome) {
        return new InjectedFault(Duration.ofSeconds(1), new Fault(planned, Duration.ZERO, FaultKind.KILL,
            ProcessRole.INGEST, Duration.ZERO), outcome, hit);
    }

    private static RunReport report(List<InjectedFault> faults) {
        return new RunReport(1, Duration.ofSeconds(1), faults, 0, List.of(), new WorkloadStats(20, 0, 0, List.of()),
            new PhaseWrites(7, 9), 1, List.of(), "logs");
    }
}
