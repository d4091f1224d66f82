package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.syncrules.SyncRules;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.writer.checkpoint.Checkpointer;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A group whose rules read a table with an id that is not its primary key (a table created, or first matched by a
 * wildcard, after deploy; the snapshot planner records it in {@code row_id_conflicts}) publishes no checkpoint
 * until the conflict is resolved.
 */
@RealServices
class RowIdConflictGatingIT {

    @Test
    void aGroupWhoseRulesDoNotFitANewTablePublishesNothingUntilThatIsResolved(TestServices services)
        throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.createPlannedWithoutWindows(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));
            Barrier before = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());

            h.db.execute("INSERT INTO tributary.row_id_conflicts (group_id, table_schema, table_name, problem)"
                + " VALUES (" + h.groupId + ", 'tenant_b', 'todos', 'Sync rules group reads \"tenant_b\".\"todos\""
                + " with an id that is not its primary key')");
            Barrier conflicting = h.log.barrier();
            awaitSealed(h, conflicting.epoch());
            assertThat(checkpointer.advance(c)).as("a checkpoint of a group in conflict with a table").isEmpty();
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            h.db.execute("DELETE FROM tributary.row_id_conflicts WHERE group_id = " + h.groupId);
            Barrier resolved = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20))
                .until(() -> h.storage.checkpoint().orElseThrow().epoch() == resolved.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    private static void awaitSealed(WriterHarness h, long epoch) {
        h.log.flush();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(h.storage.newestSeals()).isEqualTo(Map.of(0, epoch, 1, epoch)));
    }
}
