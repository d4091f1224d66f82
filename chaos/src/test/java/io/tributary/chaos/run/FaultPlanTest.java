package io.tributary.chaos.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.harness.ProcessRole;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    private static final Duration SNAPSHOT = Duration.ofSeconds(10);
    private static final Duration STREAMING = Duration.ofSeconds(40);

    @Test
    void theSameSeedGivesTheSamePlan() {
        assertThat(FaultPlan.random(42, SNAPSHOT, STREAMING, 5)).isEqualTo(FaultPlan.random(42, SNAPSHOT, STREAMING,
            5));
    }

    @Test
    void everyRoleIsKilledInEveryPhase() {
        FaultPlan plan = FaultPlan.random(7, SNAPSHOT, STREAMING, 0);

        for (Phase phase : Phase.values()) {
            assertThat(plan.of(phase)).filteredOn(f -> f.kind() == FaultKind.KILL).extracting(Fault::role)
                .containsExactlyInAnyOrder(ProcessRole.values());
        }
    }

    @Test
    void everyPhaseKillsIngestAfterAWideTransactionAndCreatesATable() {
        FaultPlan plan = FaultPlan.random(7, SNAPSHOT, STREAMING, 20);

        for (Phase phase : Phase.values()) {
            assertThat(plan.of(phase)).filteredOn(f -> f.kind() == FaultKind.KILL_MID_TRANSACTION)
                .extracting(Fault::role).containsExactly(ProcessRole.INGEST);
            assertThat(plan.of(phase)).filteredOn(f -> f.kind() == FaultKind.NEW_TABLE).hasSize(1);
        }
    }

    @Test
    void oneChunkReadIsCutAsTheSnapshotsFirstFault() {
        FaultPlan plan = FaultPlan.random(7, SNAPSHOT, STREAMING, 20);

        assertThat(plan.faults()).filteredOn(f -> f.kind() == FaultKind.CHUNK_READ_FAILURE).singleElement()
            .satisfies(f -> {
                assertThat(f.phase()).isEqualTo(Phase.SNAPSHOT);
                assertThat(f.delay()).isZero();
            });
        assertThat(plan.of(Phase.SNAPSHOT).get(0).kind()).isEqualTo(FaultKind.CHUNK_READ_FAILURE);
    }

    @Test
    void aProcessAddedDuringTheSnapshotIsRemovedWhileStreaming() {
        FaultPlan plan = FaultPlan.random(7, SNAPSHOT, STREAMING, 0);

        Fault added = plan.of(Phase.SNAPSHOT).stream().filter(f -> f.kind() == FaultKind.ADD).findFirst().orElseThrow();
        assertThat(plan.of(Phase.STREAMING)).filteredOn(f -> f.kind() == FaultKind.REMOVE).extracting(Fault::role)
            .containsExactly(added.role());
    }

    @Test
    void faultsFireWithinTheirPhaseWindowInDelayOrder() {
        FaultPlan plan = FaultPlan.random(11, SNAPSHOT, STREAMING, 20);

        assertThat(plan.of(Phase.SNAPSHOT)).allSatisfy(f -> assertThat(f.delay()).isLessThanOrEqualTo(SNAPSHOT));
        assertThat(plan.of(Phase.STREAMING)).allSatisfy(f -> assertThat(f.delay()).isLessThanOrEqualTo(STREAMING));
        assertThat(plan.of(Phase.STREAMING)).extracting(Fault::delay).isSorted();
    }
}
