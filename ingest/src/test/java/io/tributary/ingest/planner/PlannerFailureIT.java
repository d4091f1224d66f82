package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.GroupState;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A planning loop that hits an {@link Error} stops and says so, instead of planning nothing while alive. */
@RealServices
class PlannerFailureIT {

    @Test
    void anErrorStopsTheLoopAndIsKeptAsItsFailure(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        f.source.execute("CREATE TABLE items (id bigint PRIMARY KEY)");
        f.group(GroupState.PROCESSING, "public.items");
        RulesMatcher broken = (rules, tables) -> {
            throw new LinkageError("a class of the rules no longer links");
        };
        try (SnapshotPlanner planner = SnapshotPlanner.create(f.config(5000), f.source::connect, f.storage::connect,
            broken)) {
            assertThat(planner.failure()).isEmpty();
            planner.start();

            await().atMost(Duration.ofSeconds(30)).until(() -> planner.failure().isPresent());
            assertThat(planner.failure().orElseThrow()).isInstanceOf(LinkageError.class)
                .hasMessageContaining("no longer links");
        }
    }
}
