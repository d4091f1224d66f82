package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The CI profile of the infrastructure scenarios of deploys, retention, refused rows and lost logs; those whose fault
 * is a service are in {@link ServiceFaultScenariosIT}. Each runs the pipeline as separate processes under the seeded
 * workload with its fault in both phases (where it has two), and must end clean: storage equals the reference
 * evaluation, {@code rows} equals the source, every audited checkpoint holds, no process exited on its own. The seed
 * is random unless {@code -Dchaos.seed=N}; it is in every message.
 */
@RealServices
class InfraScenariosIT {

    @Test
    void newRulesDeployedMidSnapshotTakeOverAndConverge(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "redeploy-mid-snapshot", seed, new RedeployScenario(), 1);
    }

    @Test
    void retentionRemovingEveryBarrierOfChangesWhileIngestIsStoppedLetsCheckpointsResume(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "changes-retention", seed, new ChangesRetentionScenario(), 1);
    }

    @Test
    void aRowKafkaRefusesStopsIngestUntilTheOperatorRaisesTheLimitAndLosesNothing(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "oversized-row", seed, new OversizedRowScenario(seed), 1);
    }

    @Test
    void rowsDeletedAndCreatedAgainIsDetectedAndRecoveredWhileTheLostGroupKeepsServing(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "rows-recreated", seed, new RowsRecreatedScenario(), 1);
    }
}
