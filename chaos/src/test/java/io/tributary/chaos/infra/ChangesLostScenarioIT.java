package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The {@code changes-lost} scenario in the CI profile ({@link InfraProfiles#quick}), on demand
 * ({@code -Dit.test=ChangesLostScenarioIT}) and in the soak; CI runs its deterministic tests instead
 * ({@code MergeInputLossIT}, {@code LostChangesIT}).
 */
@RealServices
class ChangesLostScenarioIT {

    @Test
    void changesRemovedBeforeTheStreamWorkersMergedThemStopThemUntilTheOperatorRecovers(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "changes-lost", seed, new ChangesLostScenario(), 1);
    }
}
