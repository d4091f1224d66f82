package io.tributary.writer.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.writer.lifecycle.GroupLifecycle.Transition;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@RealServices
class GroupLifecycleIT {

    private static final String RULES = "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n";

    @Test
    void firstGroupActivatesWithItsFirstCheckpointAndAReplayReplacesIt(TestServices services) throws Exception {
        try (Connection c = services.newDatabase().connect()) {
            Migrations.migrate(c);
            long first = Deployments.deploy(c, RULES).id();
            assertThat(GroupLifecycle.step(c, Duration.ZERO)).isEmpty();

            checkpoint(c, first, "0/2000");
            assertThat(GroupLifecycle.step(c, Duration.ZERO))
                .containsExactly(new Transition(first, GroupState.PROCESSING, GroupState.ACTIVE));

            long superseded = Deployments.deploy(c, RULES + "# v2\n").id();
            long replay = Deployments.deploy(c, RULES + "# v3\n").id();
            checkpoint(c, replay, "0/1000");
            assertThat(GroupLifecycle.step(c, Duration.ZERO))
                .contains(new Transition(superseded, GroupState.PROCESSING, GroupState.STOP))
                .doesNotContain(new Transition(replay, GroupState.PROCESSING, GroupState.ACTIVE));

            checkpoint(c, replay, "0/3000");
            assertThat(GroupLifecycle.step(c, Duration.ZERO)).containsSubsequence(
                new Transition(replay, GroupState.PROCESSING, GroupState.ACTIVE),
                new Transition(first, GroupState.ACTIVE, GroupState.STOP),
                new Transition(first, GroupState.STOP, GroupState.TERMINATED),
                new Transition(first, GroupState.TERMINATED, GroupState.TERMINATED));

            assertThat(SyncRulesGroups.find(c, first).orElseThrow().cleared()).isTrue();
            assertThat(SyncRulesGroups.find(c, superseded).orElseThrow().cleared()).isTrue();
            assertThat(SyncRulesGroups.find(c, replay).orElseThrow().state()).isEqualTo(GroupState.ACTIVE);
        }
    }

    @Test
    void stoppedGroupsWaitForTheGracePeriodBeforeTheirStorageIsCleared(TestServices services) throws Exception {
        try (Connection c = services.newDatabase().connect()) {
            Migrations.migrate(c);
            long old = Deployments.deploy(c, RULES).id();
            Deployments.deploy(c, RULES + "# v2\n");

            assertThat(GroupLifecycle.step(c, Duration.ofHours(1)))
                .containsExactly(new Transition(old, GroupState.PROCESSING, GroupState.STOP));
            assertThat(GroupLifecycle.step(c, Duration.ofHours(1))).isEmpty();
            assertThat(SyncRulesGroups.find(c, old).orElseThrow().state()).isEqualTo(GroupState.STOP);
        }
    }

    private static void checkpoint(Connection c, long group, String lsn) throws Exception {
        c.createStatement().execute("UPDATE tributary.sync_rules SET checkpoint_op_id = 1, checkpoint_lsn = '" + lsn
            + "', checkpoint_epoch = 1 WHERE group_id = " + group);
    }
}
