package io.tributary.stream.merge;

import static io.tributary.stream.merge.SourceModel.ITEMS;
import static io.tributary.stream.merge.SourceModel.ORDERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.merge.SourceModel.ChunkRead;
import io.tributary.stream.merge.SourceModel.Transaction;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The merge over every interleaving of one partition's {@code changes} and {@code snapshot-rows} (each topic's own
 * order fixed) ends with {@code rows} equal to the source, in the situations docs/design.md is about.
 */
class MergeScenariosTest {

    @Test
    void updateCommittedDuringTheReadWithItsTxIdInXipWins() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        Transaction slow = db.begin().update(ITEMS, 1, "slow");
        db.begin().update(ITEMS, 2, "fast").commit();
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        slow.commit();
        db.barrier();

        assertThat(read.snapshot().xip()).contains(slow.xid);
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void updateCommittedDuringTheReadWithItsTxIdAtOrAboveXmaxWins() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        Transaction late = db.begin().update(ITEMS, 2, "late");
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        late.commit();
        db.begin().update(ITEMS, 3, "after").commit();

        assertThat(late.xid).isGreaterThanOrEqualTo(read.snapshot().xmax());
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void rowDeletedBeforeTheReadStaysDeleted() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        db.begin().delete(ITEMS, 2).commit();
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        db.barrier();

        assertThat(read.rows()).hasSize(2);
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void rowDeletedDuringTheReadIsNotResurrected() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        Transaction delete = db.begin().delete(ITEMS, 2);
        db.begin().update(ITEMS, 3, "c2").commit();
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        delete.commit();

        assertThat(read.rows()).hasSize(3);
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void rowDeletedAfterTheReadIsNotResurrected() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        db.begin().delete(ITEMS, 1).commit();
        db.begin().insert(ITEMS, 1, "again").commit();
        db.begin().delete(ITEMS, 3).commit();

        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void primaryKeyChangeDuringTheReadMovesTheRow() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        Transaction move = db.begin().delete(ITEMS, 1).insert(ITEMS, 7, "a-moved");
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        move.commit();
        db.barrier();

        assertThat(db.exists(SourceModel.key(ITEMS, 7))).isTrue();
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void longRunningTransactionInXipThatCommitsAfterTheReadWins() {
        SourceModel db = loaded(ITEMS, 3);
        Transaction longRunning = db.begin().update(ITEMS, 1, "long").delete(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        db.begin().update(ITEMS, 2, "b2").commit();
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        longRunning.commit();
        db.barrier();

        assertThat(read.snapshot().xip()).containsExactly(longRunning.xid);
        assertEveryInterleavingConverges(db, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void retriedChunkWinsOverLateRowsOfItsFirstAttempt() {
        SourceModel db = loaded(ITEMS, 4);
        db.openWindow(ITEMS, "w1");
        ChunkRead first = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        db.begin().update(ITEMS, 3, "c2").commit();
        db.begin().delete(ITEMS, 4).commit();
        ChunkRead second = db.readChunk(ITEMS, "w1", "w1#0", 2, 0, 10);

        List<SnapshotRowsMessage> rows = new ArrayList<>();
        rows.add(TablePlan.of(ITEMS, "w1", 1));
        rows.addAll(first.rows().subList(0, 1));
        rows.addAll(second.messages());
        rows.addAll(first.rows().subList(1, 4));
        rows.add(first.done());
        assertEveryInterleavingConverges(db, rows, ITEMS);
    }

    @Test
    void rowsOfARetryArrivingAfterTheChunkIsDoneAreDropped() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        ChunkRead first = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        ChunkRead retry = db.readChunk(ITEMS, "w1", "w1#0", 2, 0, 10);
        db.begin().update(ITEMS, 1, "after-both").commit();
        db.begin().delete(ITEMS, 2).commit();

        List<SnapshotRowsMessage> rows = new ArrayList<>();
        rows.add(TablePlan.of(ITEMS, "w1", 1));
        rows.addAll(first.messages());
        rows.addAll(retry.messages());
        assertEveryInterleavingConverges(db, rows, ITEMS);
    }

    @Test
    void duplicateStreamEventsAfterAnIngestRestartAreDropped() {
        SourceModel db = loaded(ITEMS, 3);
        db.openWindow(ITEMS, "w1");
        db.begin().update(ITEMS, 1, "a2").commit();
        Transaction during = db.begin().delete(ITEMS, 2);
        ChunkRead read = db.readChunk(ITEMS, "w1", "w1#0", 1, 0, 10);
        during.commit();
        db.begin().insert(ITEMS, 2, "b3").commit();

        List<ChangesMessage> sent = db.changes();
        List<ChangesMessage> withResend = new ArrayList<>(sent);
        withResend.addAll(sent.subList(0, 3));
        withResend.add(sent.get(sent.size() - 1));
        assertEveryInterleavingConverges(db, withResend, snapshot(ITEMS, "w1", read), ITEMS);
    }

    @Test
    void twoTablesBecomeReadyIndependently() {
        SourceModel db = loaded(ITEMS, 4);
        db.load(ORDERS, 1, "o1");
        db.load(ORDERS, 2, "o2");
        db.openWindow(ITEMS, "wi");
        db.openWindow(ORDERS, "wo");
        Transaction both = db.begin().update(ITEMS, 1, "a2").delete(ORDERS, 2);
        ChunkRead orders = db.readChunk(ORDERS, "wo", "wo#0", 1, 0, 10);
        ChunkRead itemsLow = db.readChunk(ITEMS, "wi", "wi#0", 1, 0, 3);
        both.commit();
        ChunkRead itemsHigh = db.readChunk(ITEMS, "wi", "wi#1", 1, 3, 10);
        db.begin().update(ORDERS, 1, "o1b").commit();

        List<SnapshotRowsMessage> rows = new ArrayList<>();
        rows.add(TablePlan.of(ITEMS, "wi", 2));
        rows.add(TablePlan.of(ORDERS, "wo", 1));
        rows.addAll(orders.messages());
        rows.addAll(itemsLow.messages());
        rows.addAll(itemsHigh.messages());
        assertEveryInterleavingConverges(db, rows, ITEMS, ORDERS);
    }

    private static SourceModel loaded(TableId table, int rows) {
        SourceModel db = new SourceModel();
        for (int id = 1; id <= rows; id++) {
            db.load(table, id, String.valueOf((char) ('a' + id - 1)));
        }
        return db;
    }

    private static List<SnapshotRowsMessage> snapshot(TableId table, String window,
                                                      ChunkRead read) {
        List<SnapshotRowsMessage> rows = new ArrayList<>();
        rows.add(TablePlan.of(table, window, 1));
        rows.addAll(read.messages());
        return rows;
    }

    private static void assertEveryInterleavingConverges(SourceModel db, List<SnapshotRowsMessage> snapshotRows,
                                                         TableId... ready) {
        assertEveryInterleavingConverges(db, db.changes(), snapshotRows, ready);
    }

    private static void assertEveryInterleavingConverges(SourceModel db, List<ChangesMessage> changes,
                                                         List<SnapshotRowsMessage> snapshotRows,
                                                         TableId... ready) {
        Map<RowKey, RowJson> expected = db.state();
        long seen = Interleavings.forEach(changes, snapshotRows, order -> {
            MergeRun run = MergeRun.of(order);
            assertThat(run.compacted()).as("rows after %s", MergeRun.describe(order)).isEqualTo(expected);
            assertThat(run.ready()).extracting(TableReady::table).as("table-ready after %s",
                MergeRun.describe(order)).containsExactlyInAnyOrder(ready);
            assertThat(run.store.keyCount()).as("keys left after %s", MergeRun.describe(order)).isZero();
        });
        assertThat(seen).isEqualTo(Interleavings.count(changes.size(), snapshotRows.size())).isGreaterThan(1);
    }
}
