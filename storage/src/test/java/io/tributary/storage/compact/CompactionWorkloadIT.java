package io.tributary.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * One compaction pass over the workload of a fresh client's initial sync: 10,000 rows in one user's bucket, each
 * updated 100 times (100 rounds over every row, 1,000,000 ops), compacted with the default batch. Afterwards the
 * bucket holds at most 1.1 ops per live row, its checksum and the latest op of every row are unchanged.
 */
@RealServices
class CompactionWorkloadIT {

    private static final int ROWS = 10_000;
    private static final int UPDATES = 100;
    private static final String BUCKET = "user_todos[\"u1\"]";

    @Test
    void onePassLeavesAtMostOnePointOneOpsPerLiveRow(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            s.execute("INSERT INTO tributary.bucket_data_g" + group + " (group_id, bucket, op_id, op, source_table,"
                + " row_id, checksum, data) SELECT " + group + ", '" + BUCKET.replace("'", "''") + "', round * "
                + ROWS + " + r, 1, 'todos', 't' || r, (hashtext(round || ':' || r)::bigint & 4294967295),"
                + " '{\"id\":\"t' || r || '\",\"v\":' || round || '}' FROM generate_series(0, " + (UPDATES - 1)
                + ") AS round, generate_series(1, " + ROWS + ") AS r");
            long last = (long) UPDATES * ROWS;
            s.executeUpdate("UPDATE tributary.sync_rules SET checkpoint_op_id = " + last + ", checkpoint_lsn = '0/1',"
                + " checkpoint_epoch = 1 WHERE group_id = " + group);
            long checksum = sum(s, group);
            String latest = latest(s, group);
            StorageFigures before = StorageFigures.of(c, group);
            assertThat(before.ops()).isEqualTo(last);
            assertThat(before.liveRows()).isEqualTo(ROWS);

            long started = System.nanoTime();
            CompactionResult result = BucketCompactor.ofBatch(BucketCompactor.DEFAULT_BATCH_OPS).compact(c, group);
            long millis = (System.nanoTime() - started) / 1_000_000;

            StorageFigures after = StorageFigures.of(c, group);
            System.out.printf("compaction of %d ops (%d live rows): %d ms, %d -> %d ops, %.3f per live row%n", last,
                ROWS, millis, before.ops(), after.ops(), after.opsPerLiveRow());
            assertThat(result.checkpoint()).isEqualTo(last);
            assertThat(after.liveRows()).isEqualTo(ROWS);
            assertThat(after.opsPerLiveRow()).as("ops per live row after one pass").isLessThanOrEqualTo(1.1);
            assertThat(sum(s, group)).as("the bucket's checksum").isEqualTo(checksum);
            assertThat(latest(s, group)).as("the latest op of every row").isEqualTo(latest);
        }
    }

    private static long sum(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT sum(checksum) % 4294967296 FROM tributary.bucket_data_g" + group)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A digest of every row's latest PUT: op id, row and data. */
    private static String latest(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT md5(string_agg(op_id || ' ' || row_id || ' ' || data, ','"
            + " ORDER BY op_id)) FROM (SELECT DISTINCT ON (row_id) op_id, op, row_id, data FROM"
            + " tributary.bucket_data_g" + group + " WHERE op IN (1, 2) ORDER BY row_id, op_id DESC) latest")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
