package io.tributary.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.Runs;
import io.tributary.chaos.run.Phase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The CI profile of the combined run: process faults (kill -9 of every role in both phases, a process added and
 * one removed) and service faults (broker and storage restarts, source connection drops and an outage, slow
 * storage) interleaved in one run, which must end clean as any run: storage equals the reference evaluation,
 * {@code rows} equals the source, every audited checkpoint holds, no process exited on its own. The seed is random
 * unless {@code -Dchaos.seed=N}; it is in every message.
 */
@RealServices
class CombinedFaultsIT {

    @Test
    void processAndServiceFaultsInterleavedInBothPhasesLoseNothing(TestServices services) {
        long seed = Runs.seed();
        CombinedReport report = CombinedRuns.run(services, InfraRuns.directory(services, CombinedRun.NAME),
            CombinedProfiles.quick(seed), 2);
        String summary = report.run().summary();

        assertThat(report.serviceFaults().get("kafka-restart")).as(summary).hasSize(2);
        assertThat(report.serviceFaults().get("storage-restart")).as(summary).hasSize(2);
        assertThat(report.serviceFaults().get("source-connections")).as(summary).hasSizeGreaterThanOrEqualTo(6);
        assertThat(report.serviceFaults().get("slow-storage")).as(summary).hasSizeGreaterThanOrEqualTo(4);
        assertThat(report.serviceFaults().values()).as(summary)
            .allSatisfy(faults -> assertThat(faults).allMatch(InfraFault::hitIntendedPhase));
        assertThat(report.appliedProcessFaults(Phase.SNAPSHOT)).as(summary).isPositive();
        assertThat(report.appliedProcessFaults(Phase.STREAMING)).as(summary).isPositive();
        assertThat(report.appliedProcessFaults()).as(summary).isGreaterThanOrEqualTo(8);
        assertThat(report.run().checkpoints()).as(summary).isPositive();
        assertThat(report.run().crashes()).as(summary).isEmpty();
        assertThat(report.run().mismatches()).as(summary).isEmpty();
    }
}
