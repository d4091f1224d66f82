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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a fresh client's first read of a bucket costs right after a pass that folded most of it: the read starts at
 * the bucket's first op, so it must not walk the index entries and heap tuples of the ops the pass deleted. One
 * bucket of 200 rows updated 50 times (10,000 ops) folds into a CLEAR and 200 PUTs; the first page of the serving
 * read (an index range scan from op 0) is then priced in buffers by {@code EXPLAIN (ANALYZE, BUFFERS)}.
 */
@RealServices
class CompactedRangeIT {

    private static final int ROWS = 200;
    private static final int UPDATES = 50;
    /** A page of 1,000 ops over 201 live ops: the index path to them and their few heap pages. */
    private static final long MOST_BUFFERS = 40;
    private static final Pattern ROWS_READ = Pattern.compile("actual time=\\S+ rows=(\\d+)");
    private static final Pattern BUFFERS = Pattern.compile("Buffers: shared(?: hit=(\\d+))?(?: read=(\\d+))?");

    @Test
    void aFreshReadAfterAPassDoesNotWalkTheOpsItDeleted(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            s.execute("INSERT INTO tributary.bucket_data_g" + group + " (group_id, bucket, op_id, op, source_table,"
                + " row_id, checksum, data) SELECT " + group + ", 'b0', round * " + ROWS + " + r, 1, 'todos',"
                + " 't' || r, (hashtext(round || ':' || r)::bigint & 4294967295), '{\"id\":\"t' || r || '\",\"v\":'"
                + " || round || ',\"body\":\"' || repeat('x', 200) || '\"}' FROM generate_series(0, " + (UPDATES - 1)
                + ") AS round, generate_series(1, " + ROWS + ") AS r");
            long checkpoint = (long) ROWS * UPDATES;
            s.executeUpdate("UPDATE tributary.sync_rules SET checkpoint_op_id = " + checkpoint + ", checkpoint_lsn ="
                + " '0/1', checkpoint_epoch = 1 WHERE group_id = " + group);

            CompactionResult pass = BucketCompactor.ofBatch(BucketCompactor.DEFAULT_BATCH_OPS).compact(c, group);

            assertThat(pass.cleared()).as("ops folded into the CLEAR").isEqualTo(checkpoint - ROWS);
            List<String> plan = firstPage(s, group);
            Matcher rows = ROWS_READ.matcher(plan.get(0));
            assertThat(rows.find()).as("%s", plan).isTrue();
            assertThat(Long.parseLong(rows.group(1))).as("ops read").isEqualTo(ROWS + 1);
            Matcher buffers = BUFFERS.matcher(String.join("\n", plan));
            assertThat(buffers.find()).as("%s", plan).isTrue();
            long touched = (buffers.group(1) == null ? 0 : Long.parseLong(buffers.group(1)))
                + (buffers.group(2) == null ? 0 : Long.parseLong(buffers.group(2)));
            assertThat(touched).as("buffers the first page of the bucket touched right after the pass:%n%s",
                String.join("\n", plan)).isLessThanOrEqualTo(MOST_BUFFERS);
        }
    }

    /** The plan's lines of a client's first page of bucket b0, as the sync API reads it, the root first. */
    private static List<String> firstPage(Statement s, long group) throws SQLException {
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) SELECT r.ord::int, d.op_id, d.op,"
            + " d.source_table, d.row_id, d.checksum, d.data FROM unnest(ARRAY['b0']::text[], ARRAY[0]::bigint[])"
            + " WITH ORDINALITY AS r(bucket, after, ord) CROSS JOIN LATERAL (SELECT op_id, op, source_table, row_id,"
            + " checksum, data FROM tributary.bucket_data_g" + group + " d WHERE d.group_id = " + group
            + " AND d.bucket = r.bucket AND d.op_id > r.after AND d.op_id <= " + Long.MAX_VALUE
            + " ORDER BY d.op_id LIMIT 1000) d ORDER BY r.ord, d.op_id LIMIT 1000")) {
            List<String> lines = new ArrayList<>();
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
            return lines;
        }
    }
}
