package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.GroupsInStorage;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An update that leaves a stored row in its buckets writes its PUT op and leaves the row of {@code current_data} as
 * it is (no new row version); one that moves the row to other buckets or another partition rewrites it.
 */
@RealServices
class UnchangedRowsIT {

    @Test
    void anUpdateWithinTheSameBucketsKeepsTheStoredRowAndAMoveRewritesIt(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        String stored;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget target = ClaimedTargets.claim(c, group, 0);
            BatchApplier applier = new BatchApplier(group);
            apply(applier, c, target, 0, "a[]", 1);
            stored = version(db);

            apply(applier, c, target, 1, "a[]", 2);
            assertThat(version(db)).as("row version after an update within its bucket").isEqualTo(stored);
            assertThat(db.column("SELECT buckets || ' ' || source_offset FROM tributary.current_data"))
                .containsExactly("[[\"a[]\",\"todos\",\"t1\"]] 0");

            apply(applier, c, target, 2, "b[]", 3);
            assertThat(version(db)).as("row version after a move to another bucket").isNotEqualTo(stored);
            assertThat(db.column("SELECT buckets || ' ' || source_offset FROM tributary.current_data"))
                .containsExactly("[[\"b[]\",\"todos\",\"t1\"]] 2");
        }
        assertThat(db.column("SELECT op || ' ' || bucket || ' ' || coalesce(data, '-') FROM tributary.bucket_data"
            + " ORDER BY op_id")).containsExactly("1 a[] {\"v\":1}", "1 a[] {\"v\":2}", "2 a[] -", "1 b[] {\"v\":3}");
    }

    @Test
    void aRowThatComesThroughAnotherPartitionIsRewrittenWithItsBucketsUnchanged(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            BatchApplier applier = new BatchApplier(group);
            apply(applier, c, ClaimedTargets.claim(c, group, 0), 0, "a[]", 1);
            apply(applier, c, ClaimedTargets.claim(c, group, 1), 0, "a[]", 2);
        }
        assertThat(db.column("SELECT buckets || ' ' || source_partition FROM tributary.current_data"))
            .as("a log rebuilt with another partition count moves keys; a table's truncate finds them by partition")
            .containsExactly("[[\"a[]\",\"todos\",\"t1\"]] 1");
    }

    private static void apply(BatchApplier applier, Connection c, ApplyTarget target, long offset, String bucket,
                              int version) throws Exception {
        BatchBuilder batch = new BatchBuilder(target.partition(), 10);
        batch.addRow(OpPlannerTest.key("t1"), offset,
            List.of(new BucketRow(bucket, "todos", "t1", "{\"v\":" + version + "}")));
        applier.apply(c, target, batch.take());
    }

    /** The physical version of the one stored row: its creating transaction and place. */
    private static String version(PostgresDatabase db) throws Exception {
        return db.column("SELECT xmin::text || ' ' || ctid::text FROM tributary.current_data").get(0);
    }
}
