package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The {@code row-id-conflict} scenario in the CI profile ({@link InfraProfiles#quick}), on demand
 * ({@code -Dit.test=RowIdConflictScenarioIT}) and in the soak; CI runs the flow's deterministic tests instead
 * (docs/chaos.md).
 */
@RealServices
class RowIdConflictScenarioIT {

    @Test
    void aLaterTableWhoseKeyTheIdCannotUseHoldsCheckpointsUntilTheOperatorFixesItAndResnapshots(
        TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "row-id-conflict", seed, new RowIdConflictScenario(seed), 1);
    }
}
