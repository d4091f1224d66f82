package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.badinput.BadInputPipeline.Result;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema, table and column names crafted to break SQL quoting (double and single quotes, spaces, semicolons, a
 * comment, mixed case, unicode, a LIKE wildcard) replicate like any other name, on the snapshot path and on the
 * streaming path.
 */
@RealServices
class HostileIdentifiersIT {

    /** {@code Tenant "Zoë"; DROP TABLE victim; --} */
    private static final String SCHEMA = "\"Tenant \"\"Zoë\"\"; DROP TABLE victim; --\"";
    /** {@code Order Items; x'y 日本_x} */
    private static final String TABLE = SCHEMA + ".\"Order Items; x'y 日本_x\"";
    /** A look-alike that the name, taken as a LIKE pattern, would match too. */
    private static final String DECOY_TABLE = SCHEMA + ".\"Order Items; x'y 日本Zx\"";
    private static final String KEY = "\"Key \"\"K\"\"\"";
    private static final String OWNER = "\"Owner\"";
    private static final String NOTE = "\"note; --'\"";

    private static final String RULES = "bucket_definitions:\n"
        + "  by_owner:\n"
        + "    parameters: SELECT request.user_id() AS owner\n"
        + "    data:\n"
        + "      - >-\n"
        + "        SELECT " + KEY + " AS id, " + OWNER + ", " + NOTE + " FROM " + TABLE
        + " WHERE " + OWNER + " = bucket.owner\n"
        + "  everything:\n"
        + "    data:\n"
        + "      - >-\n"
        + "        SELECT *, " + KEY + " AS id FROM " + TABLE + "\n";

    @TempDir
    Path dir;

    @Test
    void hostileNamesReplicateOnTheSnapshotPath(TestServices services) throws Exception {
        BadInputPipeline pipeline = created(services);
        pipeline.source.execute(inserts(1, 250));

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(RULES));
        assertThat(pipeline.status().out()).contains("  " + TABLE + " DONE");
        try (Connection c = pipeline.source.connect();
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM public.victim")) {
            assertThat(rs.next()).isTrue();
        }
    }

    @Test
    void hostileNamesReplicateOnTheStreamingPath(TestServices services) throws Exception {
        BadInputPipeline pipeline = created(services);
        pipeline.source.execute(inserts(1, 10));
        assertThat(pipeline.runUntilCaughtUp().code()).isZero();
        pipeline.source.execute(inserts(11, 200));
        pipeline.source.execute("UPDATE " + TABLE + " SET " + NOTE + " = 'changed ''; --' WHERE " + KEY + " % 3 = 0",
            "DELETE FROM " + TABLE + " WHERE " + KEY + " % 7 = 0",
            "UPDATE " + TABLE + " SET " + KEY + " = " + KEY + " + 1000 WHERE " + KEY + " % 11 = 0");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(RULES));
    }

    private BadInputPipeline created(TestServices services) throws Exception {
        BadInputPipeline pipeline = BadInputPipeline.create(services, dir, RULES);
        pipeline.source.execute("CREATE TABLE public.victim (id int PRIMARY KEY)",
            "CREATE SCHEMA " + SCHEMA,
            "CREATE TABLE " + TABLE + " (" + KEY + " int PRIMARY KEY, " + OWNER + " text NOT NULL, " + NOTE
                + " text)",
            "CREATE TABLE " + DECOY_TABLE + " (id int PRIMARY KEY, other text)",
            "INSERT INTO " + DECOY_TABLE + " VALUES (1, 'decoy')");
        return pipeline;
    }

    private static String inserts(int from, int to) {
        return "INSERT INTO " + TABLE + " SELECT i, 'user ' || (i % 5), 'note ''' || i || '''; --' FROM"
            + " generate_series(" + from + ", " + to + ") i";
    }
}
