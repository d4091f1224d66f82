package io.tributary.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.run.ChaosRun;
import io.tributary.chaos.run.FaultKind;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.run.RunReport;
import io.tributary.chaos.run.RunSettings;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI profile of the chaos suite: one run with small data, writes during and after the snapshot, and a
 * {@code kill -9} of every role in both phases plus random extra faults, as separate processes, and in each phase a
 * kill of ingest right after a transaction across every partition and a new table under a wildcard rule, and a
 * snapshot chunk read cut in the middle (the worker must read the chunk again). It must
 * end with zero mismatches (every checkpoint audited in full) and no crash; no fault planned for streaming may hit
 * the snapshot, faults must have hit both phases, and the workload must have committed transactions while the
 * faults of each phase ran. (Faults are injected one after another, each waiting for its victim's restart, so on a
 * fast machine a snapshot-phase fault can come due after the snapshot ended: it then hits streaming, and the report
 * says so.) The seed is random unless {@code -Dchaos.seed=N}; it is in every message.
 */
@RealServices
class ChaosQuickIT {

    @Test
    void survivesKillsOfEveryRoleDuringSnapshotAndStreamingWithoutMismatch(TestServices services) {
        long seed = Runs.seed();
        RunReport report = new ChaosRun(Runs.environment(services, "quick"), RunSettings.quick(seed),
            Runs::print).execute();

        assertThat(report.applied()).as(report.summary()).isGreaterThanOrEqualTo(14);
        for (FaultKind kind : List.of(FaultKind.KILL_MID_TRANSACTION, FaultKind.NEW_TABLE)) {
            assertThat(report.faults()).as(kind + " in both phases; " + report.summary())
                .filteredOn(f -> f.applied() && f.fault().kind() == kind).hasSize(2);
        }
        assertThat(report.faults()).as("a chunk read cut during the snapshot; " + report.summary())
            .anyMatch(f -> f.applied() && f.fault().kind() == FaultKind.CHUNK_READ_FAILURE
                && f.hit() == Phase.SNAPSHOT);
        assertThat(report.offPhase()).as("faults planned for streaming that hit the snapshot; " + report.summary())
            .noneMatch(f -> f.fault().phase() == Phase.STREAMING);
        assertThat(report.faults()).as(report.summary()).anyMatch(f -> f.applied() && f.hit() == Phase.SNAPSHOT)
            .anyMatch(f -> f.applied() && f.hit() == Phase.STREAMING);
        assertThat(report.writes().snapshot()).as(report.summary()).isPositive();
        assertThat(report.writes().streaming()).as(report.summary()).isPositive();
        assertThat(report.checkpoints()).as(report.summary()).isPositive();
        assertThat(report.clean()).as(report.summary()).isTrue();
    }
}
