package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.LoadPhase;
import io.tributary.storage.groups.LoadState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.LoadedTables;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A fresh group's load phase: its writers copy ops into {@code bucket_data_g<id>} detached and without its key, and
 * the transaction publishing the first checkpoint builds the key and attaches the table again. The ops are those a
 * keyed load writes (same order, kinds, rows, checksums, data) even when a key comes back in several batches of the
 * load, and a writer killed during the load leaves a state the next writer finishes.
 */
@RealServices
class LoadPhaseIT {

    private static final String RULES = StorageWriterIT.RULES;
    /** Two records per batch: every version of row a below lies in a batch of its own. */
    private static final int BATCH = 2;

    @Test
    void aKeyInSeveralLoadBatchesGetsTheOpsOfAKeyedLoad(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, RULES)) {
            load(h.log);
            later(h.log);
            h.log.barrier();
            h.log.flush();
            try (StorageWriter writer = h.start(BATCH, 1)) {
                awaitCheckpoint(h, h.storage, writer);
            }
            assertThat(state(h, h.groupId)).isEqualTo(LoadState.INDEXED);
            assertKeyedPartition(h, h.groupId);
            assertThat(withoutOpIds(h.storage.ops())).isEqualTo(withoutOpIds(keyedReplay(h)));
            assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(RULES).buckets());
            assertThat(StorageView.exactlyOnceViolations(h.storage.ops())).isEmpty();
        }
    }

    @Test
    void aWriterKilledDuringTheLoadLeavesALoadTheNextWriterIndexes(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.createUnplanned(services, 1, RULES)) {
            load(h.log);
            h.log.barrier();
            h.log.flush();
            Process writer = WriterProcess.start(h, BATCH);
            try {
                h.awaitCaughtUp(Duration.ofSeconds(60), List.of());
                assertThat(state(h, h.groupId)).isEqualTo(LoadState.LOADING);
                assertThat(isPartition(h, h.groupId)).isFalse();
                assertThat(hasPrimaryKey(h, h.groupId)).isFalse();
                assertThat(h.storage.checkpoint()).as("checkpoints are held: the group is not planned").isEmpty();
            } finally {
                writer.destroyForcibly();
                assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }

            later(h.log);
            h.log.barrier();
            h.log.flush();
            h.markPlanned();
            try (StorageWriter next = h.start(BATCH, 1)) {
                awaitCheckpoint(h, h.storage, next);
            }
            assertThat(state(h, h.groupId)).isEqualTo(LoadState.INDEXED);
            assertKeyedPartition(h, h.groupId);
            assertThat(withoutOpIds(h.storage.ops())).isEqualTo(withoutOpIds(keyedReplay(h)));
            assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(RULES).buckets());
            assertThat(StorageView.exactlyOnceViolations(h.storage.ops())).isEmpty();
        }
    }

    @Test
    void aGroupWithACheckpointNeverLoadsAgain(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, RULES)) {
            load(h.log);
            h.log.barrier();
            h.log.flush();
            try (StorageWriter writer = h.start(BATCH, 1)) {
                awaitCheckpoint(h, h.storage, writer);
            }
            try (Connection c = h.db.connect()) {
                c.setAutoCommit(false);
                assertThat(LoadPhase.begin(c, h.groupId, Duration.ofSeconds(1))).isEqualTo(LoadState.INDEXED);
            }
            assertKeyedPartition(h, h.groupId);
        }
    }

    /** Rows a, b and l1, then a moved to another owner and into {@code done}, b out of it, a deleted. */
    private static void load(RowsLog log) {
        log.upsert("todos", "a", todo("a", "u1", false, 1));
        log.upsert("todos", "b", todo("b", "u1", true, 1));
        log.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
        log.upsert("todos", "a", todo("a", "u2", true, 2));
        log.upsert("todos", "b", todo("b", "u1", false, 2));
        log.upsert("todos", "c", todo("c", "u2", false, 1));
        log.delete("todos", "a");
    }

    /** Row a back, c moved: keys of the load seen again. */
    private static void later(RowsLog log) {
        log.upsert("todos", "a", todo("a", "u1", false, 3));
        log.upsert("todos", "c", todo("c", "u1", true, 2));
    }

    private static String todo(String id, String owner, boolean done, int v) {
        return "{\"id\":\"" + id + "\",\"title\":\"" + id + v + "\",\"owner\":\"" + owner + "\",\"done\":" + done
            + ",\"v\":" + v + "}";
    }

    /**
     * The ops a group that keeps its key for good (as one whose load could not start) writes from the same log: a
     * second group of {@code h}'s database, replaying {@code h}'s topic.
     */
    private static List<StorageView.Op> keyedReplay(WriterHarness h) throws Exception {
        long group;
        try (Connection c = h.db.connect()) {
            group = SyncRulesGroups.create(c, RULES).id();
            LoadedTables.markLoaded(c, group, h.partitions, WriterHarness.TABLES);
            SyncRulesGroups.markPlanned(c, List.of(group));
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE tributary.sync_rules SET load_state = 'INDEXED' WHERE group_id = " + group);
            }
        }
        StorageView keyed = new StorageView(h.db, group);
        try (StorageWriter writer = h.startGroup(group, BATCH)) {
            awaitCheckpoint(h, keyed, writer);
        }
        assertThat(state(h, group)).isEqualTo(LoadState.INDEXED);
        assertKeyedPartition(h, group);
        return keyed.ops();
    }

    /** Waits for a checkpoint over every op, at a barrier after the writer's start (a replay's first one waits so). */
    private static void awaitCheckpoint(WriterHarness h, StorageView storage, StorageWriter writer)
        throws Exception {
        h.log.barrier();
        h.log.flush();
        Map<Integer, Long> ends = h.endOffsets();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(writer.failure()).isEmpty();
            assertThat(storage.storedOffsets()).isEqualTo(ends);
            assertThat(storage.checkpoint()).isPresent();
            List<StorageView.Op> ops = storage.ops();
            assertThat(storage.checkpoint().orElseThrow().opId()).isEqualTo(ops.get(ops.size() - 1).opId());
        });
    }

    /** The ops without their op ids (which differ between two groups of one database). */
    private static List<String> withoutOpIds(List<StorageView.Op> ops) {
        return ops.stream().map(op -> op.op() + " " + op.bucket() + " " + op.table() + " " + op.rowId() + " "
            + op.checksum() + " " + op.data()).toList();
    }

    private static void assertKeyedPartition(WriterHarness h, long group) throws SQLException {
        assertThat(isPartition(h, group)).as("bucket_data_g%d is a partition of bucket_data", group).isTrue();
        assertThat(hasPrimaryKey(h, group)).as("bucket_data_g%d has its key", group).isTrue();
        try (Connection c = h.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM tributary.bucket_data WHERE group_id = " + group)) {
            rs.next();
            assertThat(rs.getLong(1)).as("ops read through bucket_data")
                .isEqualTo(new StorageView(h.db, group).ops().size());
        }
    }

    private static LoadState state(WriterHarness h, long group) throws SQLException {
        try (Connection c = h.db.connect()) {
            return LoadPhase.state(c, group);
        }
    }

    private static boolean isPartition(WriterHarness h, long group) throws SQLException {
        return query(h, "SELECT relispartition FROM pg_class WHERE oid = '" + LoadPhase.bucketData(group)
            + "'::regclass");
    }

    private static boolean hasPrimaryKey(WriterHarness h, long group) throws SQLException {
        return query(h, "SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE contype = 'p' AND conrelid = '"
            + LoadPhase.bucketData(group) + "'::regclass)");
    }

    private static boolean query(WriterHarness h, String sql) throws SQLException {
        try (Connection c = h.db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
