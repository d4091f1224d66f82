package io.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * How Postgres runs a page of a bucket's ops on the API's connections: an index range scan in op id order that stops
 * after the page, whatever the partition's statistics say. With fresh statistics of a partition that is one bucket
 * of 10,000 ops (as after a compaction and its vacuum), the planner estimates 50 rows for a bucket's op range of
 * unknown bounds and, estimating fewer rows than the page, prefers reading the whole range through a bitmap and
 * sorting it: every page then reads every op after it, quadratic in the bucket's size.
 */
@RealServices
class PageReadPlanIT {

    private static final int OPS = 4_000;
    private static final int PAGE = 1_000;
    private static final int ROUNDS = 50;
    private static final Pattern SCAN = Pattern.compile("on bucket_data_g\\d+ d .*actual time=\\S+ rows=(\\d+)");

    @Test
    void aPageReadsItsOpsInOrderAndNoMore(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            s.execute("INSERT INTO tributary.bucket_data_g" + group + " (group_id, bucket, op_id, op, source_table,"
                + " row_id, checksum, data) SELECT " + group + ", 'b0', round * " + OPS + " + i, 1, 'todos', 't' || i,"
                + " i, '{\"id\":\"t' || i || '\",\"v\":' || round || '}' FROM generate_series(0, " + (ROUNDS - 1)
                + ") AS round, generate_series(1, " + OPS + ") AS i");
            s.execute("ANALYZE tributary.bucket_data_g" + group);
            s.execute("DELETE FROM tributary.bucket_data_g" + group + " WHERE op_id <= " + (ROUNDS - 1) * OPS);
            s.execute("VACUUM (ANALYZE) tributary.bucket_data_g" + group);
        }
        String statement = "EXPLAIN (ANALYZE) " + BucketReader.statement(group);
        try (StoragePool pool = new StoragePool(new PgEndpoint(db.jdbcUrl(), db.user(), db.password()), 1,
            Duration.ofSeconds(10))) {
            List<String> plan = pool.withConnection(c -> {
                try (PreparedStatement explain = c.prepareStatement(statement)) {
                    explain.setArray(1, c.createArrayOf("text", new Object[] {"b0"}));
                    explain.setArray(2, c.createArrayOf("bigint", new Object[] {0L}));
                    explain.setLong(3, (long) ROUNDS * OPS);
                    explain.setInt(4, PAGE);
                    explain.setInt(5, PAGE);
                    List<String> lines = new ArrayList<>();
                    try (ResultSet rs = explain.executeQuery()) {
                        while (rs.next()) {
                            lines.add(rs.getString(1));
                        }
                    }
                    return lines;
                }
            });

            String text = String.join("\n", plan);
            Matcher scan = SCAN.matcher(text);
            assertThat(scan.find()).as("the scan of the partition in:%n%s", text).isTrue();
            assertThat(Long.parseLong(scan.group(1))).as("ops the scan read for a page of %d:%n%s", PAGE, text)
                .isEqualTo(PAGE);
        }
    }
}
