package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.badinput.BadInputPipeline.Result;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync rules that read a table the pipeline cannot replicate as it is: the table's snapshot fails with an error
 * that names it and the fix ({@code tributary status} shows it), and every other table still converges with
 * checkpoints that cover the source. Once fixed, the table is snapshotted and converges too.
 */
@RealServices
class UnreplicableTablesIT {

    private static final SampleDataset DATA = new SampleDataset(10, 40, 300);

    @TempDir
    Path dir;

    @Test
    void aTableWithoutPrimaryKeyFailsNamingTheFixWhileTheOtherTablesConverge(TestServices services)
        throws Exception {
        BadInputPipeline pipeline = deployed(services, "CREATE TABLE public.audit_log (at timestamptz, note text)",
            "INSERT INTO public.audit_log SELECT now(), 'n' || i FROM generate_series(1, 20) i",
            "audit_log");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(SampleDataset.syncRules()));
        assertThat(pipeline.status().out())
            .contains("\"public\".\"audit_log\" FAILED")
            .contains("has no primary key")
            .contains("ALTER TABLE \"public\".\"audit_log\" ADD PRIMARY KEY");
    }

    @Test
    void aColumnOfUnsupportedTypeFailsNamingTheColumnWhileTheOtherTablesConverge(TestServices services)
        throws Exception {
        BadInputPipeline pipeline = deployed(services,
            "CREATE TABLE public.bookings (id int PRIMARY KEY, during tstzrange)",
            "INSERT INTO public.bookings SELECT i, tstzrange(now(), now() + interval '1 hour')"
                + " FROM generate_series(1, 20) i",
            "bookings");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(SampleDataset.syncRules()));
        assertThat(pipeline.status().out())
            .contains("\"public\".\"bookings\" FAILED")
            .contains("Column \"during\" of source table \"public\".\"bookings\" has type tstzrange")
            .contains("Change the column's type, or leave the table out of the sync rules");
    }

    @Test
    void aTableThatIsGivenAPrimaryKeyIsSnapshottedAndConvergesOnTheNextRun(TestServices services) throws Exception {
        BadInputPipeline pipeline = deployed(services, "CREATE TABLE public.audit_log (id int NOT NULL, note text)",
            "INSERT INTO public.audit_log SELECT i, 'n' || i FROM generate_series(1, 20) i", "audit_log");
        assertThat(pipeline.runUntilCaughtUp().code()).isZero();
        pipeline.source.execute("ALTER TABLE public.audit_log ADD PRIMARY KEY (id)",
            "INSERT INTO public.audit_log SELECT i, 'm' || i FROM generate_series(21, 30) i");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(rulesAlsoReading("audit_log")));
        assertThat(pipeline.status().out()).contains("\"public\".\"audit_log\" DONE");
    }

    private static String rulesAlsoReading(String table) {
        return SampleDataset.syncRules() + "  broken:\n    data:\n      - SELECT * FROM " + table + "\n";
    }

    /** The sample plus {@code table} made by {@code ddl} and {@code insert}, with rules that also read it. */
    private BadInputPipeline deployed(TestServices services, String ddl, String insert, String table)
        throws Exception {
        BadInputPipeline pipeline = BadInputPipeline.create(services, dir, rulesAlsoReading(table));
        try (Connection c = pipeline.source.connect()) {
            DATA.load(c);
        }
        pipeline.source.execute(ddl, insert);
        return pipeline;
    }
}
