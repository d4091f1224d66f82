package io.tributary.stream.merge;

import static io.tributary.stream.merge.SourceModel.ITEMS;
import static io.tributary.stream.merge.SourceModel.ORDERS;
import static io.tributary.stream.merge.SourceModel.key;
import static io.tributary.stream.merge.SourceModel.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One merge rule per test, on hand-made inputs. */
class MergeRulesTest {

    private static final KeyValues PK1 = key(ITEMS, 1).pk();
    private static final KeyValues PK2 = key(ITEMS, 2).pk();
    /** Sees every transaction below 100. */
    private static final PgSnapshot OLD = PgSnapshot.of(100, 100, List.of());

    private final MergeRun run = new MergeRun();

    @Test
    void insertAndUpdateBecomeRowsAndDeleteBecomesATombstone() {
        ChangeEvent insert = ChangeEvent.insert(ITEMS, PK1, row(1, "a"), Lsn.of(10), 0, 90);
        ChangeEvent delete = ChangeEvent.delete(ITEMS, PK1, Lsn.of(20), 0, 91);

        assertThat(run.apply(insert)).containsExactly(ResolvedRow.of(insert));
        assertThat(run.apply(delete)).containsExactly(new ResolvedDelete(ITEMS, PK1));
    }

    @Test
    void eventAtOrBelowTheHighWaterMarkIsDropped() {
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "a"), Lsn.of(20), 1, 90));

        assertThat(run.apply(ChangeEvent.update(ITEMS, PK2, row(2, "b"), Lsn.of(20), 0, 90))).isEmpty();
        assertThat(run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "a"), Lsn.of(20), 1, 90))).isEmpty();
        assertThat(run.apply(ChangeEvent.update(ITEMS, PK2, row(2, "c"), Lsn.of(20), 2, 90))).hasSize(1);
        assertThat(run.drops).hasSize(2).allMatch(d -> d.startsWith(DropReason.DUPLICATE_EVENT.name()));
    }

    @Test
    void barriersAreForwardedInOrder() {
        assertThat(run.apply(Barrier.of(1, Lsn.of(10)))).containsExactly(Barrier.of(1, Lsn.of(10)));
        assertThat(run.apply(Barrier.of(2, Lsn.of(10)))).containsExactly(Barrier.of(2, Lsn.of(10)));
    }

    @Test
    void reSentBarrierIsDroppedButAHigherLsnIsForwardedWhateverItsEpoch() {
        run.apply(Barrier.of(5, Lsn.of(50)));

        assertThat(run.apply(Barrier.of(4, Lsn.of(40)))).isEmpty();
        assertThat(run.apply(Barrier.of(0, Lsn.of(60)))).containsExactly(Barrier.of(0, Lsn.of(60)));
    }

    @Test
    void snapshotRowIsEmittedWhenNoStreamEventOfItsKeyIsInvisible() {
        run.apply(window("w"));
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "a"), Lsn.of(20), 0, 99));

        assertThat(run.apply(snapshotRow(1, "a", "c1", 1, OLD))).hasSize(1);
    }

    @Test
    void snapshotRowIsDroppedWhenAnEmittedStreamEventOfItsKeyIsInvisible() {
        run.apply(window("w"));
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "new"), Lsn.of(20), 0, 100));

        assertThat(run.apply(snapshotRow(1, "old", "c1", 1, OLD))).isEmpty();
        assertThat(run.drops).singleElement().asString().startsWith(DropReason.STREAM_IS_NEWER.name());
    }

    @Test
    void snapshotRowBeforeItsWindowMarkerIsEmittedUnchecked() {
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "before"), Lsn.of(5), 0, 50));

        assertThat(run.apply(snapshotRow(1, "before", "c1", 1, OLD))).hasSize(1);
    }

    @Test
    void truncationInvisibleToTheSnapshotHidesItsRows() {
        run.apply(window("w"));
        TableTruncate truncate = TableTruncate.of(ITEMS, Lsn.of(30), 0, 120);

        assertThat(run.apply(truncate)).containsExactly(truncate);
        assertThat(run.apply(snapshotRow(2, "b", "c1", 1, OLD))).isEmpty();
        assertThat(run.apply(snapshotRow(2, "b", "c1", 1, PgSnapshot.of(121, 121, List.of())))).hasSize(1);
    }

    @Test
    void rowOfALowerAttemptThanSeenIsDropped() {
        run.apply(snapshotRow(1, "a", "c1", 2, OLD));

        assertThat(run.apply(snapshotRow(2, "b", "c1", 1, OLD))).isEmpty();
        assertThat(run.drops).singleElement().asString().startsWith(DropReason.SUPERSEDED_ATTEMPT.name());
    }

    @Test
    void rowOfAChunkDoneInThisPartitionIsDropped() {
        run.apply(done("c1", "w", 1, 10));

        assertThat(run.apply(snapshotRow(1, "a", "c1", 2, OLD))).isEmpty();
        assertThat(run.drops).singleElement().asString().startsWith(DropReason.CHUNK_ALREADY_DONE.name());
    }

    @Test
    void doneMarkerOfALowerAttemptDoesNotCompleteTheChunk() {
        run.apply(window("w"));
        run.apply(TablePlan.of(ITEMS, "w", 1));
        run.apply(snapshotRow(1, "a", "c1", 2, OLD));

        assertThat(run.apply(done("c1", "w", 1, 10))).isEmpty();
        assertThat(run.apply(done("c1", "w", 2, 11))).containsExactly(TableReady.of(ITEMS, "w", Lsn.of(11)));
    }

    @Test
    void tableReadyCarriesTheHighestChunkHighWatermark() {
        run.apply(window("w"));
        run.apply(TablePlan.of(ITEMS, "w", 3));
        run.apply(done("c1", "w", 1, 30));
        run.apply(done("c2", "w", 1, 50));

        assertThat(run.apply(done("c3", "w", 1, 40))).containsExactly(TableReady.of(ITEMS, "w", Lsn.of(50)));
    }

    @Test
    void planArrivingAfterEveryChunkIsDoneMakesTheTableReady() {
        run.apply(window("w"));
        run.apply(done("c1", "w", 1, 30));

        assertThat(run.apply(TablePlan.of(ITEMS, "w", 1))).containsExactly(TableReady.of(ITEMS, "w", Lsn.of(30)));
    }

    @Test
    void windowCompletedBeforeItsMarkerBecomesReadyAtTheMarker() {
        assertThat(run.apply(TablePlan.of(ITEMS, "w", 1))).isEmpty();
        assertThat(run.apply(done("c1", "w", 1, 30))).isEmpty();

        assertThat(run.apply(window("w"))).containsExactly(TableReady.of(ITEMS, "w", Lsn.of(30)));
    }

    @Test
    void keysOfATableAreReleasedWhenItIsReadyWhileOtherTablesKeepTheirs() {
        run.apply(window("w"));
        run.apply(new TableWindowMarker(ORDERS, Lsn.of(11), "wo"));
        run.apply(TablePlan.of(ITEMS, "w", 1));
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "a"), Lsn.of(20), 0, 100));
        run.apply(ChangeEvent.update(ORDERS, PK1, row(1, "o"), Lsn.of(20), 1, 100));
        assertThat(run.store.keyCount()).isEqualTo(2);

        run.apply(done("c1", "w", 1, 30));

        assertThat(run.store.keyCount()).isEqualTo(1);
    }

    @Test
    void tableWithoutASnapshotWindowKeepsNoState() {
        run.apply(ChangeEvent.insert(ITEMS, PK1, row(1, "a"), Lsn.of(20), 0, 100));

        assertThat(run.store.keyCount()).isZero();
        assertThat(run.store.table(ITEMS)).isEmpty();
    }

    @Test
    void reSentWindowMarkerOfAReadyWindowDoesNotRestartTracking() {
        run.apply(window("w"));
        run.apply(TablePlan.of(ITEMS, "w", 1));
        run.apply(done("c1", "w", 1, 30));

        assertThat(run.apply(window("w"))).isEmpty();
        run.apply(ChangeEvent.insert(ITEMS, PK1, row(1, "a"), Lsn.of(40), 0, 100));
        assertThat(run.store.keyCount()).isZero();
    }

    @Test
    void newerWindowSupersedesTheOpenOneAndKeepsItsKeys() {
        run.apply(window("w1"));
        run.apply(ChangeEvent.update(ITEMS, PK1, row(1, "new"), Lsn.of(20), 0, 100));
        run.apply(new TableWindowMarker(ITEMS, Lsn.of(25), "w2"));

        assertThat(run.apply(snapshotRow("w2", 1, "old", "c9", 1, OLD))).isEmpty();
        assertThat(run.store.table(ITEMS).orElseThrow().window("w1").orElseThrow().phase())
            .isEqualTo(WindowPhase.SUPERSEDED);
    }

    @Test
    void rowsAndMarkersOfAClosedWindowAreDropped() {
        run.apply(window("w1"));
        run.apply(new TableWindowMarker(ITEMS, Lsn.of(25), "w2"));

        assertThat(run.apply(done("c1", "w1", 1, 30))).isEmpty();
        assertThat(run.apply(TablePlan.of(ITEMS, "w1", 1))).isEmpty();
        assertThat(run.apply(snapshotRow("w1", 1, "a", "c1", 2, OLD))).isEmpty();
        assertThat(run.drops).hasSize(3).allMatch(d -> d.startsWith(DropReason.WINDOW_CLOSED.name()));
    }

    @Test
    void chunkStatesAreReleasedWhenTheirWindowIsReadyAndLateRowsAreStillDropped() {
        run.apply(window("w"));
        run.apply(TablePlan.of(ITEMS, "w", 2));
        run.apply(snapshotRow(1, "a", "c1", 1, OLD));
        run.apply(snapshotRow(2, "b", "c2", 1, OLD));
        run.apply(done("c1", "w", 1, 30));
        assertThat(run.store.chunkCount()).isEqualTo(2);

        assertThat(run.apply(done("c2", "w", 1, 40))).containsExactly(TableReady.of(ITEMS, "w", Lsn.of(40)));

        assertThat(run.store.chunkCount()).isZero();
        assertThat(run.apply(snapshotRow(1, "late", "c1", 2, OLD))).isEmpty();
        assertThat(run.apply(done("c1", "w", 2, 50))).isEmpty();
        assertThat(run.store.chunkCount()).isZero();
        assertThat(run.drops).hasSize(2).allMatch(d -> d.startsWith(DropReason.WINDOW_CLOSED.name()));
    }

    @Test
    void aZombieRowOfASupersededWindowIsDroppedAfterTheNextWindowIsReady() {
        run.apply(window("w1"));
        run.apply(snapshotRow("w1", 1, "w1 row", "w1#0", 1, OLD));
        run.apply(new TableWindowMarker(ITEMS, Lsn.of(25), "w2"));
        assertThat(run.store.chunkCount()).isZero();
        run.apply(TablePlan.of(ITEMS, "w2", 1));
        run.apply(done("w2#0", "w2", 1, 30));

        assertThat(run.apply(snapshotRow("w1", 1, "zombie", "w1#0", 1, OLD))).isEmpty();
        assertThat(run.drops).singleElement().asString().startsWith(DropReason.WINDOW_CLOSED.name());
    }

    @Test
    void aRowNamingAnotherWindowThanItsChunkIsDropped() {
        run.apply(snapshotRow("w1", 1, "a", "c1", 1, OLD));

        assertThat(run.apply(snapshotRow("w2", 2, "b", "c1", 1, OLD))).isEmpty();
        assertThat(run.drops).singleElement().asString().startsWith(DropReason.CHUNK_WINDOW_CONFLICT.name());
    }

    private static TableWindowMarker window(String windowId) {
        return TableWindowMarker.of(ITEMS, Lsn.of(10), windowId);
    }

    /** A row of a chunk of window "w". */
    private static SnapshotRow snapshotRow(int id, String value, String chunkId, int attempt, PgSnapshot snapshot) {
        return snapshotRow("w", id, value, chunkId, attempt, snapshot);
    }

    private static SnapshotRow snapshotRow(String windowId, int id, String value, String chunkId, int attempt,
                                           PgSnapshot snapshot) {
        return new SnapshotRow(ITEMS, key(ITEMS, id).pk(), row(id, value), chunkId, windowId, attempt, snapshot);
    }

    private static ChunkDone done(String chunkId, String windowId, int attempt, long highWatermark) {
        TableId table = ITEMS;
        return new ChunkDone(chunkId, table, windowId, attempt, Lsn.of(highWatermark), 1);
    }
}
