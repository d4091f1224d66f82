package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.badinput.BadInputPipeline.Result;
import io.tributary.launcher.cli.ExitCodes;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.run.StorageContents;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 50 MB row, more than a Kafka message may hold with the default limits. Snapshotted, it fails its table's
 * snapshot (every other table converges; raise the limits and {@code tributary resnapshot} it); streamed, it
 * stops ingest, because skipping it would serve a stale row forever: the error names the row and the limits to
 * raise, and once they are raised everything converges.
 */
@RealServices
class OversizedRowIT {

    private static final SampleDataset DATA = new SampleDataset(10, 40, 300);
    private static final String RULES = SampleDataset.syncRules()
        + "  blobs:\n    data:\n      - SELECT * FROM blobs\n";
    private static final String FIFTY_MB = "repeat('x', 50 * 1024 * 1024)";

    @TempDir
    Path dir;

    @Test
    void aFiftyMegabyteRowFailsItsTableNamingTheRowAndTheLimitWhileTheOtherTablesConverge(TestServices services)
        throws Exception {
        BadInputPipeline pipeline = deployed(services);
        pipeline.source.execute("INSERT INTO public.blobs VALUES (7, " + FIFTY_MB + ")");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        assertServesAllButBlobs(pipeline);
        assertThat(pipeline.status().out()).contains("\"public\".\"blobs\" FAILED").contains("max.request.size");
    }

    @Test
    void aTableWhoseSnapshotFailedOnAFiftyMegabyteRowConvergesOnceTheLimitsAreRaisedAndItIsResnapshotted(
        TestServices services) throws Exception {
        BadInputPipeline pipeline = deployed(services);
        pipeline.source.execute("INSERT INTO public.blobs VALUES (7, " + FIFTY_MB + ")");
        assertThat(pipeline.runUntilCaughtUp().code()).isZero();
        pipeline.raiseKafkaLimits(64 * 1024 * 1024);

        Result resnapshot = pipeline.resnapshot("public", "blobs");
        Result run = pipeline.runUntilCaughtUp();

        assertThat(resnapshot.code()).as(resnapshot.out()).isZero();
        assertThat(resnapshot.out()).contains("Snapshot of \"public\".\"blobs\" planned as window");
        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(RULES));
    }

    @Test
    void aFiftyMegabyteChangeStopsIngestNamingTheRowAndTheLimitsToRaise(TestServices services) throws Exception {
        BadInputPipeline pipeline = deployed(services);
        assertThat(pipeline.runUntilCaughtUp().code()).isZero();
        pipeline.source.execute("UPDATE public.blobs SET body = " + FIFTY_MB + " WHERE id = 2");

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.out()).contains("Stopping: ingest failed:")
            .contains("The change of \"public\".\"blobs\" key [2] is too large for Kafka")
            .contains("kafka.properties.max.request.size").contains("max.message.bytes");
    }

    @Test
    void onceTheLimitsAreRaisedTheFiftyMegabyteChangeAndEverythingAfterItConverge(TestServices services)
        throws Exception {
        BadInputPipeline pipeline = deployed(services);
        assertThat(pipeline.runUntilCaughtUp().code()).isZero();
        pipeline.source.execute("UPDATE public.blobs SET body = " + FIFTY_MB + " WHERE id = 2",
            "UPDATE public.todos SET completed = NOT completed WHERE id % 3 = 0");
        assertThat(pipeline.runUntilCaughtUp().code()).isEqualTo(ExitCodes.FAILURE);
        pipeline.raiseKafkaLimits(64 * 1024 * 1024);

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        pipeline.assertServes(pipeline.expected(RULES));
    }

    private BadInputPipeline deployed(TestServices services) throws Exception {
        BadInputPipeline pipeline = BadInputPipeline.create(services, dir, RULES);
        try (Connection c = pipeline.source.connect()) {
            DATA.load(c);
        }
        pipeline.source.execute("CREATE TABLE public.blobs (id int PRIMARY KEY, body text)",
            "INSERT INTO public.blobs SELECT i, 'small ' || i FROM generate_series(1, 5) i");
        return pipeline;
    }

    private static void assertServesAllButBlobs(BadInputPipeline pipeline) throws Exception {
        Map<String, StorageContents.Bucket> expected = pipeline.expected(SampleDataset.syncRules());
        try (Connection c = pipeline.storage.connect()) {
            Map<String, StorageContents.Bucket> served = new TreeMap<>(StorageContents.served(c, 1));
            served.keySet().removeIf(bucket -> bucket.startsWith("blobs["));
            assertThat(served).isEqualTo(expected);
        }
    }
}
