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
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Compaction passes bounded to a number of ops: four buckets of 500 rows updated 20 times (40,000 ops), each bucket
 * larger than a pass. The first pass stops inside the first bucket; later passes go on where it stopped (the same
 * compactor keeps its scan), also after writers appended ops above the checkpoint and a new one was published, until
 * a round ends.
 * Every bucket's checksum at every checkpoint at or above the one it was compacted up to and every row's latest op
 * stay as they were, and a second round leaves at most 1.1 ops per live row.
 */
@RealServices
class BoundedCompactionIT {

    private static final int BUCKETS = 4;
    private static final int ROWS = 500;
    private static final int UPDATES = 20;
    private static final long PASS_OPS = 3_000;

    @Test
    void aBoundedPassMakesProgressAndLaterPassesFinishTheRound(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            long first = append(s, group, 0, UPDATES, 0);
            publish(s, group, first);
            Map<String, Long> atFirst = sums(s, group, first);
            BucketCompactor compactor = BucketCompactor.ofBatch(1_000).boundedTo(PASS_OPS);

            CompactionResult pass = compactor.compact(c, group);

            assertThat(pass.roundEnded()).as("a pass of %d ops over %d ops ends the round", PASS_OPS,
                first).isFalse();
            assertThat(cursor(s, group)).as("the cursor while inside the first bucket").isEmpty();
            assertThat(sums(s, group, first)).isEqualTo(atFirst);

            long second = append(s, group, UPDATES, UPDATES + 2, first);
            publish(s, group, second);
            Map<String, Long> atSecond = sums(s, group, second);
            String latest = latest(s, group);
            int passes = 1;
            int firstBucketDone = 0;
            while (!pass.roundEnded()) {
                pass = compactor.compact(c, group);
                passes++;
                assertThat(passes).as("passes to end the round").isLessThan(200);
                if (firstBucketDone == 0 && cursor(s, group).equals("b0")) {
                    firstBucketDone = passes;
                    assertThat(opsOf(s, group, "b0", first)).as("ops of the first bucket up to the checkpoint it was"
                        + " compacted at").isEqualTo(ROWS + 1);
                }
                if (firstBucketDone == 0) {
                    assertThat(sums(s, group, first)).as("checksums at the first checkpoint while the first bucket,"
                        + " resumed at it, is compacted (pass %d)", passes).isEqualTo(atFirst);
                }
                assertThat(sums(s, group, second)).as("checksums at the second checkpoint after pass %d", passes)
                    .isEqualTo(atSecond);
            }
            assertThat(firstBucketDone).as("the pass that finished the first bucket (10,000 ops scanned, 9,500"
                + " folded, %d a pass)", PASS_OPS).isBetween(2, 8);
            assertThat(passes).as("passes of %d ops over %d ops", PASS_OPS, first)
                .isGreaterThanOrEqualTo((int) (first / PASS_OPS));
            assertThat(latest(s, group)).as("every row's latest op").isEqualTo(latest);

            do {
                pass = compactor.compact(c, group);
            } while (!pass.roundEnded());
            StorageFigures after = StorageFigures.of(c, group);
            assertThat(after.liveRows()).isEqualTo((long) BUCKETS * ROWS);
            assertThat(after.opsPerLiveRow()).as("ops per live row after a second round").isLessThanOrEqualTo(1.1);
            assertThat(sums(s, group, second)).isEqualTo(atSecond);
        }
    }

    /** Rounds {@code from} to {@code to} (exclusive) of updates of every row of every bucket; the last op id. */
    private static long append(Statement s, long group, int from, int to, long after) throws SQLException {
        int perRound = BUCKETS * ROWS;
        s.execute("INSERT INTO tributary.bucket_data_g" + group + " (group_id, bucket, op_id, op, source_table,"
            + " row_id, checksum, data) SELECT " + group + ", 'b' || b, " + after + " + (round - " + from + ") * "
            + perRound + " + b * " + ROWS + " + r, 1, 'todos', 't' || r,"
            + " (hashtext(round || ':' || b || ':' || r)::bigint & 4294967295),"
            + " '{\"id\":\"t' || r || '\",\"v\":' || round || '}' FROM generate_series(" + from + ", " + (to - 1)
            + ") AS round, generate_series(0, " + (BUCKETS - 1) + ") AS b, generate_series(1, " + ROWS + ") AS r");
        return after + (long) (to - from) * perRound;
    }

    private static void publish(Statement s, long group, long opId) throws SQLException {
        s.executeUpdate("UPDATE tributary.sync_rules SET checkpoint_op_id = " + opId + ", checkpoint_lsn = '0/1',"
            + " checkpoint_epoch = coalesce(checkpoint_epoch, 0) + 1 WHERE group_id = " + group);
    }

    private static long ops(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM tributary.bucket_data_g" + group)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long opsOf(Statement s, long group, String bucket, long checkpoint) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM tributary.bucket_data_g" + group + " WHERE bucket = '"
            + bucket + "' AND op_id <= " + checkpoint)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String cursor(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT bucket_cursor FROM tributary.compaction_state WHERE group_id = "
            + group)) {
            return rs.next() ? rs.getString(1) : "";
        }
    }

    /** Each bucket's wrapping 32-bit checksum over the ops at or below {@code checkpoint}. */
    private static Map<String, Long> sums(Statement s, long group, long checkpoint) throws SQLException {
        Map<String, Long> sums = new TreeMap<>();
        try (ResultSet rs = s.executeQuery("SELECT bucket, sum(checksum) % 4294967296 FROM tributary.bucket_data_g"
            + group + " WHERE op_id <= " + checkpoint + " GROUP BY bucket")) {
            while (rs.next()) {
                sums.put(rs.getString(1), rs.getLong(2));
            }
        }
        return sums;
    }

    /** A digest of every row's latest PUT per bucket: op id, row and data. */
    private static String latest(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT md5(string_agg(bucket || ' ' || op_id || ' ' || row_id || ' '"
            + " || data, ',' ORDER BY bucket, op_id)) FROM (SELECT DISTINCT ON (bucket, row_id) bucket, op_id,"
            + " row_id, data FROM tributary.bucket_data_g" + group + " WHERE op IN (1, 2)"
            + " ORDER BY bucket, row_id, op_id DESC) latest")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
