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
 * A bucket larger than a pass, compacted by a process that restarts after every pass: 500 rows updated 20 times
 * (10,000 ops) in one bucket, passes of 3,000 ops, each by a new compactor on a new connection. The scan and the
 * fold go on where the last pass stopped, so the bucket ends with its CLEAR and one op per live row, while writers
 * append above the checkpoint and a newer one is published; every checksum and every row's latest op stay.
 */
@RealServices
class RestartedCompactionIT {

    private static final String BUCKET = "b0";
    private static final int ROWS = 500;
    private static final int UPDATES = 20;
    private static final long PASS_OPS = 3_000;
    private static final int MAX_PASSES = 12;

    @Test
    void aProcessRestartedAfterEveryPassFinishesTheFold(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group;
        long first;
        long second;
        long atFirst;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            first = append(s, group, 0, UPDATES, 0);
            publish(s, group, first);
            atFirst = sum(s, group, first);
        }
        int passes = 0;
        boolean appended = false;
        long atSecond = 0;
        String latest = null;
        while (true) {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                CompactionResult pass = BucketCompactor.ofBatch(1_000).boundedTo(PASS_OPS).compact(c, group);
                passes++;
                assertThat(sum(s, group, first)).as("the checksum at the checkpoint the bucket is compacted at, after"
                    + " pass %d", passes).isEqualTo(atFirst);
                if (!appended) {
                    second = append(s, group, UPDATES, UPDATES + 1, first);
                    publish(s, group, second);
                    atSecond = sum(s, group, second);
                    latest = latest(s, group);
                    appended = true;
                }
                assertThat(sum(s, group, first + ROWS)).as("the checksum at the newer checkpoint after pass %d",
                    passes).isEqualTo(atSecond);
                if (pass.roundEnded()) {
                    assertThat(opsUpTo(s, group, first)).as("ops up to the checkpoint the bucket was compacted at"
                        + " after %d passes of a restarted process: a CLEAR and each row's latest op there", passes)
                        .isEqualTo(ROWS + 1);
                    assertThat(clears(s, group)).as("CLEAR ops").isEqualTo(1);
                    assertThat(latest(s, group)).as("every row's latest op").isEqualTo(latest);
                    break;
                }
                assertThat(passes).as("passes of %d ops, each by a restarted process, to compact a bucket of %d ops",
                    PASS_OPS, first).isLessThan(MAX_PASSES);
            }
        }
    }

    /** Rounds {@code from} to {@code to} (exclusive) of updates of every row; the last op id. */
    private static long append(Statement s, long group, int from, int to, long after) throws SQLException {
        s.execute("INSERT INTO tributary.bucket_data_g" + group + " (group_id, bucket, op_id, op, source_table,"
            + " row_id, checksum, data) SELECT " + group + ", '" + BUCKET + "', " + after + " + (round - " + from
            + ") * " + ROWS + " + r, 1, 'todos', 't' || r, (hashtext(round || ':' || r)::bigint & 4294967295),"
            + " '{\"id\":\"t' || r || '\",\"v\":' || round || '}' FROM generate_series(" + from + ", " + (to - 1)
            + ") AS round, generate_series(1, " + ROWS + ") AS r");
        return after + (long) (to - from) * ROWS;
    }

    private static void publish(Statement s, long group, long opId) throws SQLException {
        s.executeUpdate("UPDATE tributary.sync_rules SET checkpoint_op_id = " + opId + ", checkpoint_lsn = '0/1',"
            + " checkpoint_epoch = coalesce(checkpoint_epoch, 0) + 1 WHERE group_id = " + group);
    }

    private static long sum(Statement s, long group, long checkpoint) throws SQLException {
        return single(s, "SELECT coalesce(sum(checksum) % 4294967296, 0) FROM tributary.bucket_data_g" + group
            + " WHERE op_id <= " + checkpoint);
    }

    private static long opsUpTo(Statement s, long group, long checkpoint) throws SQLException {
        return single(s, "SELECT count(*) FROM tributary.bucket_data_g" + group + " WHERE op_id <= " + checkpoint);
    }

    private static long clears(Statement s, long group) throws SQLException {
        return single(s, "SELECT count(*) FROM tributary.bucket_data_g" + group + " WHERE op = 4");
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A digest of every row's latest PUT: op id, row and data. */
    private static String latest(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT md5(string_agg(op_id || ' ' || row_id || ' ' || data, ','"
            + " ORDER BY op_id)) FROM (SELECT DISTINCT ON (row_id) op_id, row_id, data FROM tributary.bucket_data_g"
            + group + " WHERE op IN (1, 2) ORDER BY row_id, op_id DESC) latest")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
