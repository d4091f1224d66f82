package io.tributary.storage.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

@RealServices
class SnapshotProgressIT {

    private static final WindowKey W1 = WindowKey.of("tenant_a", "orders", "w1");
    private static final WindowKey W2 = WindowKey.of("tenant_a", "orders", "w2");

    private static Connection storage(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Connection c = db.connect();
        Migrations.migrate(c);
        return c;
    }

    private static WindowPlan plan(WindowKey window, int chunks) {
        List<PlannedChunk> list = new java.util.ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            list.add(new PlannedChunk(window.windowId() + "#" + i, i,
                i == 0 ? Optional.empty() : Optional.of("[" + i * 10 + "]"),
                i == chunks - 1 ? Optional.empty() : Optional.of("[" + (i + 1) * 10 + "]")));
        }
        return new WindowPlan(window, 100, list);
    }

    @Test
    void aTableHasAtMostOneOpenWindow(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            assertThat(SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT))).containsExactly(W1);
            assertThat(SnapshotProgress.open(c, Map.of(W2, SnapshotPriority.ACTIVE_SNAPSHOT))).isEmpty();
            assertThat(SnapshotProgress.latestWindows(c)).singleElement()
                .satisfies(w -> assertThat(w.window()).isEqualTo(W1))
                .satisfies(w -> assertThat(w.state()).isEqualTo(WindowStatus.PLANNING));
        }
    }

    @Test
    void anInterruptedWindowIsReplacedInTheTransactionThatOpensItsSuccessor(TestServices services)
        throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));

            assertThat(SnapshotProgress.open(c, Map.of(W2, SnapshotPriority.ACTIVE_SNAPSHOT), List.of(W1)))
                .containsExactly(W2);

            assertThat(SnapshotProgress.find(c, W1)).isEmpty();
            assertThat(SnapshotProgress.latestWindows(c)).singleElement()
                .satisfies(w -> assertThat(w.window()).isEqualTo(W2));
        }
    }

    @Test
    void aWindowWithStoredChunksIsNotReplaced(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 2)));

            assertThat(SnapshotProgress.open(c, Map.of(W2, SnapshotPriority.ACTIVE_SNAPSHOT), List.of(W1)))
                .isEmpty();

            assertThat(SnapshotProgress.find(c, W1)).isPresent();
        }
    }

    @Test
    void everyClaimIsANewAttemptUntilTheChunkIsDone(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 2)));
            SnapshotProgress.markSnapshotting(c, List.of(W1));

            assertThat(SnapshotChunks.claim(c, "w1#0")).isEqualTo(OptionalInt.of(1));
            assertThat(SnapshotChunks.claim(c, "w1#0")).isEqualTo(OptionalInt.of(2));
            assertThat(SnapshotChunks.complete(c, "w1#0", 7, "0/10")).isPresent();
            assertThat(SnapshotChunks.claim(c, "w1#0")).isEmpty();
            assertThat(SnapshotChunks.complete(c, "w1#0", 7, "0/10")).isEmpty();
            assertThat(SnapshotChunks.claim(c, "unknown")).isEmpty();
        }
    }

    @Test
    void chunksClaimedTogetherGetANewAttemptEachAsClaimedOneByOne(TestServices services) throws Exception {
        WindowKey failed = WindowKey.of("tenant_b", "orders", "v1");
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT,
                failed, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 3), plan(failed, 1)));
            SnapshotProgress.markSnapshotting(c, List.of(W1, failed));
            SnapshotProgress.fail(c, failed, "no key");
            SnapshotChunks.claim(c, "w1#0");
            SnapshotChunks.claim(c, "w1#2");
            SnapshotChunks.complete(c, "w1#2", 1, "0/5");

            Map<String, Integer> claimed = SnapshotChunks.claimAll(c,
                List.of("w1#1", "w1#0", "w1#2", "v1#0", "unknown", "w1#1"));

            assertThat(claimed).isEqualTo(Map.of("w1#0", 2, "w1#1", 1));
            assertThat(SnapshotChunks.claimAll(c, List.of("w1#1"))).isEqualTo(Map.of("w1#1", 2));
            assertThat(SnapshotChunks.claimAll(c, List.of("w1#2"))).isEmpty();
            assertThat(SnapshotChunks.claimAll(c, List.of())).isEmpty();
            assertThat(SnapshotChunks.find(c, "w1#2").orElseThrow().attempt()).isEqualTo(1);
            assertThat(SnapshotChunks.find(c, "v1#0").orElseThrow().attempt()).isZero();
        }
    }

    @Test
    void theLastChunkCompletesTheWindow(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 2)));
            SnapshotProgress.markSnapshotting(c, List.of(W1));
            SnapshotChunks.claim(c, "w1#0");
            SnapshotChunks.claim(c, "w1#1");

            WindowProgress first = SnapshotChunks.complete(c, "w1#0", 5, "0/20").orElseThrow();
            assertThat(first.state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            WindowProgress last = SnapshotChunks.complete(c, "w1#1", 6, "0/18").orElseThrow();
            assertThat(last.state()).isEqualTo(WindowStatus.DONE);
            assertThat(last.rowsDone()).isEqualTo(11);
            assertThat(last.chunksDone()).isEqualTo(2);
            assertThat(last.highWatermark()).contains("0/20");
            assertThat(last.finishedAt()).isPresent();
        }
    }

    @Test
    void chunksCompletedTogetherAddUpPerWindow(TestServices services) throws Exception {
        WindowKey other = WindowKey.of("tenant_b", "orders", "v1");
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT,
                other, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 3), plan(other, 2)));
            SnapshotProgress.markSnapshotting(c, List.of(W1, other));
            for (String chunk : List.of("w1#0", "w1#1", "w1#2", "v1#0", "v1#1")) {
                SnapshotChunks.claim(c, chunk);
            }
            SnapshotChunks.complete(c, "v1#1", 1, "0/5");

            Map<String, WindowProgress> done = SnapshotChunks.completeAll(c, List.of(
                new ChunkCompletion("w1#2", 4, "0/18"), new ChunkCompletion("w1#0", 5, "0/20"),
                new ChunkCompletion("v1#1", 9, "0/90"), new ChunkCompletion("v1#0", 2, "0/7"),
                new ChunkCompletion("w1#0", 5, "0/20")));

            assertThat(done).containsOnlyKeys("w1#0", "w1#2", "v1#0");
            WindowProgress w1 = done.get("w1#0");
            assertThat(done.get("w1#2")).isEqualTo(w1);
            assertThat(w1.state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            assertThat(w1.chunksDone()).isEqualTo(2);
            assertThat(w1.rowsDone()).isEqualTo(9);
            assertThat(w1.highWatermark()).contains("0/20");
            WindowProgress v1 = done.get("v1#0");
            assertThat(v1.state()).isEqualTo(WindowStatus.DONE);
            assertThat(v1.chunksDone()).isEqualTo(2);
            assertThat(v1.rowsDone()).isEqualTo(3);
            assertThat(v1.highWatermark()).contains("0/7");
            assertThat(SnapshotChunks.completeAll(c, List.of())).isEmpty();
        }
    }

    @Test
    void totalsAddUpTheNewestWindowOfEveryTable(TestServices services) throws Exception {
        WindowKey failed = WindowKey.of("tenant_c", "orders", "f1");
        WindowKey done = WindowKey.of("tenant_b", "orders", "v1");
        try (Connection c = storage(services)) {
            assertThat(WindowTotals.read(c)).isEqualTo(new WindowTotals(0, 0, 0, 0, 0, 0, 0, 0));
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT, done,
                SnapshotPriority.ACTIVE_SNAPSHOT, failed, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 3), plan(done, 1)));
            SnapshotProgress.markSnapshotting(c, List.of(W1, done));
            SnapshotProgress.fail(c, failed, "no key");
            SnapshotChunks.claim(c, "w1#0");
            SnapshotChunks.complete(c, "w1#0", 5, "0/20");
            SnapshotChunks.claim(c, "v1#0");
            SnapshotChunks.complete(c, "v1#0", 7, "0/21");

            assertThat(WindowTotals.read(c)).isEqualTo(new WindowTotals(3, 1, 1, 1, 12, 2, 200, 2));
            assertThat(WindowTotals.countOpen(c)).isEqualTo(1);
        }
    }

    @Test
    void chunksDoneBeforePlanningEndsCompleteTheWindowWhenItEnds(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 1)));
            SnapshotChunks.claim(c, "w1#0");
            assertThat(SnapshotChunks.complete(c, "w1#0", 3, "0/30").orElseThrow().state())
                .isEqualTo(WindowStatus.PLANNING);

            SnapshotProgress.markSnapshotting(c, List.of(W1));

            assertThat(SnapshotProgress.find(c, W1).orElseThrow().state()).isEqualTo(WindowStatus.DONE);
        }
    }

    @Test
    void aFailedWindowKeepsItsErrorAndRefusesClaims(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.REPROCESS_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 2)));
            SnapshotProgress.markSnapshotting(c, List.of(W1));

            assertThat(SnapshotProgress.fail(c, W1, "relation does not exist")).isTrue();

            assertThat(SnapshotChunks.claim(c, "w1#1")).isEmpty();
            WindowProgress failed = SnapshotProgress.find(c, W1).orElseThrow();
            assertThat(failed.state()).isEqualTo(WindowStatus.FAILED);
            assertThat(failed.error()).contains("relation does not exist");
            assertThat(SnapshotProgress.open(c, Map.of(W2, SnapshotPriority.ACTIVE_SNAPSHOT))).containsExactly(W2);
        }
    }

    @Test
    void reprioritizingReturnsThePendingChunksInTheirNewQueue(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.REPROCESS_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 3)));
            SnapshotProgress.markSnapshotting(c, List.of(W1));
            SnapshotChunks.claim(c, "w1#0");
            SnapshotChunks.complete(c, "w1#0", 1, "0/1");

            List<StoredChunk> moved = SnapshotProgress.reprioritize(c, W1, SnapshotPriority.ACTIVE_SNAPSHOT);

            assertThat(moved).extracting(StoredChunk::chunkId).containsExactly("w1#1", "w1#2");
            assertThat(moved).allSatisfy(chunk -> assertThat(chunk.priority())
                .isEqualTo(SnapshotPriority.ACTIVE_SNAPSHOT));
            assertThat(SnapshotProgress.reprioritize(c, W1, SnapshotPriority.ACTIVE_SNAPSHOT)).isEmpty();
        }
    }

    @Test
    void anInterruptedPlanIsDiscardedWithItsChunks(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            SnapshotProgress.open(c, Map.of(W1, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(plan(W1, 2)));

            assertThat(SnapshotProgress.discard(c, W1)).isTrue();

            assertThat(SnapshotChunks.find(c, "w1#0")).isEmpty();
            assertThat(SnapshotProgress.latestWindows(c)).isEmpty();
        }
    }
}
