package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.syncrules.SyncRules;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.writer.checkpoint.Checkpointer;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Checkpoint gating: nothing is published before the group is planned, and a table the group reads holds its
 * checkpoints until it is ready everywhere.
 */
@RealServices
class CheckpointGatingIT {

    @Test
    void aCheckpointWaitsUntilEveryReadTableIsReadyInEveryPartitionAtItsHighWatermark(TestServices services)
        throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            h.db.execute("INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority)"
                + " VALUES"
                + " ('public', 'todos', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT'),"
                + " ('public', 'unread', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT')");
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));

            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            Barrier notReady = h.log.barrier();
            awaitSealed(h, notReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty();

            h.log.tableReady(0, "todos", "w1", Lsn.of(notReady.lsn().value() + 10));
            h.log.tableReady(1, "todos", "w1", Lsn.of(notReady.lsn().value() + 2_000_000));
            Barrier belowHighWatermark = h.log.barrier();
            awaitSealed(h, belowHighWatermark.epoch());
            assertThat(belowHighWatermark.lsn().value()).isLessThan(notReady.lsn().value() + 2_000_000);
            assertThat(checkpointer.advance(c)).isEmpty();
            assertThat(h.storage.checkpoint()).isEmpty();

            Barrier ready = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(ready.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aGroupNoPlanningRoundHasSeenPublishesNoCheckpointUntilItIsPlanned(TestServices services) throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.createUnplanned(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));

            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            Barrier unplanned = h.log.barrier();
            awaitSealed(h, unplanned.epoch());
            assertThat(checkpointer.advance(c)).isEmpty();
            assertThat(h.storage.checkpoint()).isEmpty();

            h.markPlanned();

            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(unplanned.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aTableWhoseSnapshotFailedHoldsNoCheckpoint(TestServices services) throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 2, rules);
             StorageWriter writer = h.start(100, 1)) {
            h.db.execute("INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority,"
                + " error) VALUES ('public', 'todos', 'w1', 'FAILED', 'ACTIVE_SNAPSHOT', 'no primary key')");

            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            Barrier barrier = h.log.barrier();
            h.log.flush();

            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(barrier.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aTableWithRowsButNoSnapshotWindowHoldsCheckpointsUntilItsWindowIsReady(TestServices services)
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
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            // a table created after the group was planned: its changes stream before the planner opens its window
            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false}");
            Barrier streamedOnly = h.log.barrier();
            awaitSealed(h, streamedOnly.epoch());
            assertThat(checkpointer.advance(c)).isEmpty();
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            h.openWindow("todos", "w1");
            Barrier windowOpen = h.log.barrier();
            awaitSealed(h, windowOpen.epoch());
            assertThat(checkpointer.advance(c)).isEmpty();
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            h.tableReadyEverywhere("todos", "w1", windowOpen.lsn());
            Barrier ready = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20))
                .until(() -> h.storage.checkpoint().orElseThrow().epoch() == ready.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aTableWithoutWindowStillHoldsOnceTheTableThatHeldTheLastAttemptIsReady(TestServices services)
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
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            // lists snapshots; todos streams rows before its window exists
            h.openWindow("lists", "w1");
            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false}");
            Barrier bothHeld = h.log.barrier();
            awaitSealed(h, bothHeld.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by lists' readiness

            h.tableReadyEverywhere("lists", "w1", bothHeld.lsn());
            Barrier listsReady = h.log.barrier();
            awaitSealed(h, listsReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // the readiness passes; todos' rows without a window hold
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            h.openWindow("todos", "w1");
            Barrier todosOpen = h.log.barrier();
            awaitSealed(h, todosOpen.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by todos' readiness
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(before.epoch());

            h.tableReadyEverywhere("todos", "w1", todosOpen.lsn());
            Barrier ready = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20))
                .until(() -> h.storage.checkpoint().orElseThrow().epoch() == ready.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aTableThatPassedAnEpochIsHeldAgainByItsNextWindow(TestServices services) throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            h.openWindow("todos", "w1");
            h.openWindow("lists", "w1");
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));

            Barrier opened = h.log.barrier();
            awaitSealed(h, opened.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by both windows
            assertThat(h.storage.checkpoint()).isEmpty();

            h.tableReadyEverywhere("todos", "w1", opened.lsn());
            Barrier todosReady = h.log.barrier();
            awaitSealed(h, todosReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by lists; todos passed this epoch
            assertThat(h.storage.checkpoint()).isEmpty();

            h.db.execute("UPDATE tributary.source_tables SET state = 'DONE' WHERE table_name = 'todos'",
                "INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority)"
                    + " VALUES ('public', 'todos', 'w2', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT')");
            h.tableReadyEverywhere("lists", "w1", opened.lsn());
            Barrier listsReady = h.log.barrier();
            awaitSealed(h, listsReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by todos' new window
            assertThat(h.storage.checkpoint()).isEmpty();

            // both windows' markers in one partition, as one transaction may apply them: the newer one counts
            h.log.tableReady(0, "todos", "w1", opened.lsn());
            h.tableReadyEverywhere("todos", "w2", listsReady.lsn());
            Barrier todosReadyAgain = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(todosReadyAgain.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aTableHeldBehindTheTableThatHeldTheLastAttemptStillHoldsOnceThatOneIsReady(TestServices services)
        throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            h.db.execute("INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority)"
                + " VALUES ('public', 'todos', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT'),"
                + " ('public', 'lists', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT')");
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));

            Barrier opened = h.log.barrier();
            h.log.tableReady(0, "lists", "w1", opened.lsn());
            Barrier listsHalfReady = h.log.barrier();
            awaitSealed(h, listsHalfReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // todos, ready nowhere, holds longest

            h.tableReadyEverywhere("todos", "w1", opened.lsn());
            Barrier todosReady = h.log.barrier();
            awaitSealed(h, todosReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // lists, not ready in partition 1
            assertThat(h.storage.checkpoint()).isEmpty();

            h.log.tableReady(1, "lists", "w1", opened.lsn());
            Barrier listsReady = h.log.barrier();
            awaitSealed(h, listsReady.epoch());
            checkpointer.advance(c); // or the writer's own checkpointer first
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(listsReady.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void theTableThatHeldTheLastAttemptHoldsNothingOnceItsWindowFailed(TestServices services) throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 2, rules);
             StorageWriter writer = h.start(100, 1);
             Connection c = h.db.connect()) {
            h.db.execute("INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority)"
                + " VALUES ('public', 'todos', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT'),"
                + " ('public', 'lists', 'w1', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT')");
            c.setAutoCommit(false);
            Checkpointer checkpointer = new Checkpointer(h.groupId, 2, SyncRules.parse(rules));

            Barrier opened = h.log.barrier();
            h.tableReadyEverywhere("lists", "w1", opened.lsn());
            Barrier listsReady = h.log.barrier();
            awaitSealed(h, listsReady.epoch());
            assertThat(checkpointer.advance(c)).isEmpty(); // held by todos

            h.db.execute("UPDATE tributary.source_tables SET state = 'FAILED', error = 'no primary key'"
                + " WHERE table_name = 'todos'");
            Barrier todosFailed = h.log.barrier();
            awaitSealed(h, todosFailed.epoch());
            checkpointer.advance(c); // or the writer's own checkpointer first
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(todosFailed.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }

    private static void awaitSealed(WriterHarness h, long epoch) {
        h.log.flush();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(h.storage.newestSeals()).isEqualTo(Map.of(0, epoch, 1, epoch)));
    }
}
