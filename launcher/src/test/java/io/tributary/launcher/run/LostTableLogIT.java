package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.cli.RecoverCommand;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.StartupWait;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Kafka lost its data between two runs (here: the second run's topics are new and empty, as on a new cluster or a
 * broker that lost its disk; the source, its replication slot and storage are kept). The second run finds within
 * seconds that the ACTIVE group's offsets refer to a log that is gone, rebuilds the table log by snapshot and deploys
 * a replacement group; the lost group keeps serving its last checkpoint until the replacement is ACTIVE, which then
 * serves the source as it is, including a change made while Kafka was gone. A process that cannot snapshot (the
 * storage role alone) stops instead, naming {@code tributary recover}, which recovers the same way.
 */
@RealServices
class LostTableLogIT {

    private static final Duration DETECTION = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aRunOnANewKafkaLogRebuildsItWhileTheLostGroupKeepsServing(TestServices services) throws Exception {
        World world = firstRunThenLoseKafka(services);
        try (Environment environment = Environment.start(world.second, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(world.second, environment, Role.ALL,
                 Files.createDirectory(dir.resolve("b")), new SimpleMeterRegistry(), StartupWait.NONE)) {
            long replacement = await("a replacement of group " + world.lostGroup).atMost(DETECTION)
                .until(() -> newest(world.storage).id(), id -> id > world.lostGroup);
            assertThat(group(world.storage, replacement).content())
                .isEqualTo(group(world.storage, world.lostGroup).content());
            awaitReplacementServingTheSource(world, replacement);
            assertThat(pipeline.problem()).isEmpty();
        }
    }

    @Test
    void aProcessWithoutThePlannerStopsAndTheRecoverCommandRecovers(TestServices services) throws Exception {
        World world = firstRunThenLoseKafka(services);
        try (Environment environment = Environment.start(world.second, StartupWait.NONE);
             Pipeline storageOnly = Pipeline.start(world.second, environment, Role.STORAGE,
                 Files.createDirectory(dir.resolve("b")), new SimpleMeterRegistry(), StartupWait.NONE)) {
            String problem = await("the storage process's problem").atMost(DETECTION)
                .until(storageOnly::problem, Optional::isPresent).orElseThrow();
            assertThat(problem).contains("group " + world.lostGroup, "tributary recover --config FILE");
            assertThat(newest(world.storage).id()).isEqualTo(world.lostGroup);
        }

        StringWriter out = new StringWriter();
        CommandLine recover = new CommandLine(new RecoverCommand());
        recover.setOut(new PrintWriter(out));
        assertThat(recover.execute("--config", world.configFile.toString())).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Every table is snapshotted again", "Deployed group");
        long replacement = newest(world.storage).id();
        assertThat(replacement).isGreaterThan(world.lostGroup);

        try (Environment environment = Environment.start(world.second, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(world.second, environment, Role.ALL,
                 Files.createDirectory(dir.resolve("c")), new SimpleMeterRegistry(), StartupWait.NONE)) {
            awaitReplacementServingTheSource(world, replacement);
            assertThat(newest(world.storage).id()).as("one replacement").isEqualTo(replacement);
        }
    }

    /**
     * Kafka is lost while every table is being snapshotted: the first run's snapshot workers never ran, so every
     * window is open, its markers in the lost log. The recovery fails those windows and snapshots every table again;
     * the replacement becomes ACTIVE and serves the source.
     */
    @Test
    void aLogLostWhileEveryTableIsSnapshottingIsRebuiltWithNewWindows(TestServices services) throws Exception {
        SampleDeployment deployment = SampleDeployment.create(services, dir);
        PostgresDatabase source = deployment.source();
        PostgresDatabase storage = deployment.storage();
        long lostGroup = deployment.group();
        TributaryConfig first = deployment.config();
        try (Environment environment = Environment.start(first, StartupWait.NONE);
             Pipeline writers = Pipeline.start(first, environment, Role.STORAGE,
                 Files.createDirectory(dir.resolve("a")), new SimpleMeterRegistry(), StartupWait.NONE);
             Pipeline stream = Pipeline.start(first, environment, Role.REPLICATION_STREAMING,
                 Files.createDirectory(dir.resolve("b")), new SimpleMeterRegistry(), StartupWait.NONE);
             Pipeline ingest = Pipeline.start(first, environment, Role.INGEST, Files.createDirectory(dir.resolve("c")),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            await("every table snapshotting, the group's log recorded").atMost(Duration.ofSeconds(90)).until(() -> {
                try (Connection c = storage.connect();
                     Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM tributary.source_tables WHERE state"
                         + " = 'SNAPSHOTTING'), (SELECT count(*) FROM tributary.group_kafka_logs)")) {
                    rs.next();
                    return rs.getInt(1) == 3 && rs.getInt(2) == 1;
                }
            });
        }
        TributaryConfig second = deployment.onNewTopics(services);

        try (Environment environment = Environment.start(second, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(second, environment, Role.ALL, Files.createDirectory(dir.resolve("d")),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            long replacement = await("a replacement of group " + lostGroup).atMost(DETECTION)
                .until(() -> newest(storage).id(), id -> id > lostGroup);
            await("replacement " + replacement + " ACTIVE").atMost(Duration.ofSeconds(120))
                .until(() -> group(storage, replacement).state() == GroupState.ACTIVE);
            try (Connection src = source.connect(); Connection st = storage.connect()) {
                Map<String, StorageContents.Bucket> expected = StorageContents.expected(src,
                    SampleDataset.syncRules());
                await("the replacement serves the source").atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(StorageContents.served(st, replacement)).isEqualTo(expected));
            }
            assertThat(pipeline.problem()).isEmpty();
        }
    }

    /** A source, a storage and a config file; after it the second config's Kafka topics are new and empty. */
    private record World(PostgresDatabase source, PostgresDatabase storage, Path configFile, TributaryConfig second,
                         long lostGroup, Checkpoint served) {
    }

    /**
     * Runs the pipeline until its group is ACTIVE, changes a row while no pipeline runs, and points the config file
     * at new, empty topics (as a new cluster would be).
     */
    private World firstRunThenLoseKafka(TestServices services) throws Exception {
        SampleDeployment deployment = SampleDeployment.create(services, dir);
        PostgresDatabase source = deployment.source();
        PostgresDatabase storage = deployment.storage();
        long lostGroup = deployment.group();
        TributaryConfig first = deployment.config();
        try (Environment environment = Environment.start(first, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(first, environment, Role.ALL, Files.createDirectory(dir.resolve("a")),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            await("group " + lostGroup + " ACTIVE").atMost(Duration.ofSeconds(90))
                .until(() -> group(storage, lostGroup).state() == GroupState.ACTIVE);
        }
        Checkpoint served = group(storage, lostGroup).checkpoint().orElseThrow();
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE public.todos SET description = 'changed while Kafka was gone' WHERE id = 7");
        }
        TributaryConfig second = deployment.onNewTopics(services);
        return new World(source, storage, deployment.configFile(), second, lostGroup, served);
    }

    /**
     * Waits until {@code replacement} is ACTIVE, checking that the lost group serves its last checkpoint while it is
     * ACTIVE, then that the replacement serves the source as it is.
     */
    private static void awaitReplacementServingTheSource(World world, long replacement) throws Exception {
        await("replacement " + replacement + " ACTIVE").atMost(Duration.ofSeconds(120)).until(() -> {
            SyncRulesGroup lost = group(world.storage, world.lostGroup);
            if (lost.state() == GroupState.ACTIVE) {
                assertThat(lost.checkpoint()).as("the lost group's checkpoint while it serves").contains(world.served);
            }
            return group(world.storage, replacement).state() == GroupState.ACTIVE;
        });
        assertThat(group(world.storage, world.lostGroup).state()).isIn(GroupState.STOP, GroupState.TERMINATED);
        try (Connection src = world.source.connect(); Connection st = world.storage.connect()) {
            Map<String, StorageContents.Bucket> expected = StorageContents.expected(src, SampleDataset.syncRules());
            await("the replacement serves the source").atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(StorageContents.served(st, replacement)).isEqualTo(expected));
        }
    }

    private static SyncRulesGroup group(PostgresDatabase storage, long id) throws Exception {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.find(c, id).orElseThrow();
        }
    }

    private static SyncRulesGroup newest(PostgresDatabase storage) throws Exception {
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            return groups.get(groups.size() - 1);
        }
    }
}
