package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.writer.GroupsInStorage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** One transaction over several barriers of a partition records what committing its epochs one by one would. */
@RealServices
class MultiEpochApplyIT {

    @Test
    void aTransactionOverThreeBarriersSealsEachEpochAfterItsOwnOps(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget target = ClaimedTargets.claim(c, group, 0);
            List<PreparedBatch> batches = List.of(epoch(0, 0, "t1", 1, 1), epoch(0, 2, "t1", 2, 2),
                epoch(0, 4, "t2", 3, 3));

            ApplyResult result = new BatchApplier(group).apply(c,
                List.of(target), batches).get(0);

            assertThat(result.sealedEpoch()).isEqualTo(OptionalLong.of(3));
            assertThat(result.nextOffset()).isEqualTo(6);
            assertThat(result.ops()).isEqualTo(3);
        }
        List<long[]> seals = rows(db, "SELECT epoch, max_op_id FROM tributary.sealed_epochs ORDER BY epoch");
        List<long[]> ops = rows(db, "SELECT op_id FROM tributary.bucket_data ORDER BY op_id");
        assertThat(seals).extracting(s -> s[0]).containsExactly(1L, 2L, 3L);
        assertThat(ops).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(seals.get(i)[1]).isEqualTo(ops.get(i)[0]);
        }
        assertThat(rows(db, "SELECT count(DISTINCT xmin::text) FROM tributary.sealed_epochs").get(0)[0])
            .isEqualTo(1);
        assertThat(rows(db, "SELECT next_offset FROM tributary.partition_offsets").get(0)[0]).isEqualTo(6);
    }

    @Test
    void aRowInsertedAndDeletedInTwoEpochsOfOneTransactionIsPutThenRemoved(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget target = ClaimedTargets.claim(c, group, 0);
            BatchBuilder builder = new BatchBuilder(0, 10);
            builder.addDelete(OpPlannerTest.key("t1"), 2);
            builder.addBarrier(Barrier.of(2, Lsn.of(200)), 3);

            new BatchApplier(group).apply(c, List.of(target), List.of(epoch(0, 0, "t1", 1, 1),
                builder.take()));
        }
        List<long[]> seals = rows(db, "SELECT epoch, max_op_id FROM tributary.sealed_epochs ORDER BY epoch");
        List<long[]> ops = rows(db, "SELECT op_id, op FROM tributary.bucket_data ORDER BY op_id");
        assertThat(ops).extracting(o -> o[1]).containsExactly(1L, 2L);
        assertThat(seals.get(0)[1]).isEqualTo(ops.get(0)[0]);
        assertThat(seals.get(1)[1]).isEqualTo(ops.get(1)[0]);
        assertThat(rows(db, "SELECT count(*) FROM tributary.current_data").get(0)[0]).isZero();
    }

    @Test
    void aRowMovedToAnotherBucketInALaterEpochOfOneTransactionIsRemovedFromTheFirst(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget target = ClaimedTargets.claim(c, group, 0);
            BatchBuilder first = new BatchBuilder(0, 10);
            first.addRow(OpPlannerTest.key("t1"), 0, List.of(new BucketRow("a[]", "todos", "t1", "{\"v\":1}")));
            first.addRow(OpPlannerTest.key("t2"), 1, List.of(new BucketRow("a[]", "todos", "t2", "{\"v\":1}")));
            first.addBarrier(Barrier.of(1, Lsn.of(100)), 2);
            BatchBuilder second = new BatchBuilder(0, 10);
            second.addRow(OpPlannerTest.key("t1"), 3, List.of(new BucketRow("b[]", "todos", "t1", "{\"v\":2}")));
            second.addBarrier(Barrier.of(2, Lsn.of(200)), 4);

            new BatchApplier(group).apply(c, List.of(target), List.of(first.take(), second.take()));
        }
        List<String> ops = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT op, bucket, row_id FROM tributary.bucket_data ORDER BY op_id")) {
            while (rs.next()) {
                ops.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        assertThat(ops).containsExactly("1 a[] t1", "1 a[] t2", "2 a[] t1", "1 b[] t1");
    }

    @Test
    void aTransactionOverTwoPartitionsSealsEachEpochInBothBeforeAnOpOfTheNextEpoch(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget zero = ClaimedTargets.claim(c, group, 0);
            ApplyTarget one = ClaimedTargets.claim(c, group, 1);
            List<PreparedBatch> batches = List.of(epoch(0, 0, "a", 1, 1), epoch(1, 0, "b", 1, 1),
                epoch(0, 2, "a", 2, 2), epoch(1, 2, "b", 2, 2));

            new BatchApplier(group).apply(c, List.of(zero, one), batches);
        }
        List<long[]> seals = rows(db, "SELECT epoch, max(max_op_id), count(*) FROM tributary.sealed_epochs"
            + " GROUP BY epoch ORDER BY epoch");
        List<long[]> ops = rows(db, "SELECT op_id FROM tributary.bucket_data ORDER BY op_id");
        assertThat(seals).extracting(s -> s[2]).containsExactly(2L, 2L);
        assertThat(ops).hasSize(4);
        assertThat(seals.get(0)[1]).isEqualTo(ops.get(1)[0]);
        assertThat(seals.get(1)[1]).isEqualTo(ops.get(3)[0]);
        assertThat(rows(db, "SELECT source_partition FROM tributary.current_data ORDER BY source_partition"))
            .extracting(r -> r[0]).containsExactly(0L, 1L);
    }


    private static PreparedBatch epoch(int partition, long offset, String id, int version, long epoch) {
        BatchBuilder builder = new BatchBuilder(partition, 10);
        String data = "{\"id\":\"" + id + "\",\"v\":" + version + "}";
        builder.addRow(OpPlannerTest.key(id), offset, List.of(new BucketRow("global[]", "todos", id, data)));
        builder.addBarrier(Barrier.of(epoch, Lsn.of(100 * epoch)), offset + 1);
        return builder.take();
    }

    private static List<long[]> rows(PostgresDatabase db, String sql) throws Exception {
        List<long[]> rows = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                long[] row = new long[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getLong(i + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
