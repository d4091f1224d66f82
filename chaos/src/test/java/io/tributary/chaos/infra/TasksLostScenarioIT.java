package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The {@code tasks-lost} scenario in the CI profile ({@link InfraProfiles#quick}), on demand
 * ({@code -Dit.test=TasksLostScenarioIT}) and in the soak; CI runs its deterministic test instead
 * ({@code SnapshotPlannerIT.tasksKafkaRemovedBeforeAWorkerTookThemArePublishedAgainByTheNextRound}).
 */
@RealServices
class TasksLostScenarioIT {

    @Test
    void tasksRemovedBeforeTheSnapshotWorkersTookThemAreReadFromTasksThePlannerPublishesAgain(TestServices services) {
        long seed = Runs.seed();
        InfraRuns.runClean(services, "tasks-lost", seed, new TasksLostScenario(), 1);
    }
}
