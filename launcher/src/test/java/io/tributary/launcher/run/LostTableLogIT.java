package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.Deployments;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka lost its data between two runs (here: the second run's topics are new and empty, as on a new cluster or a
 * broker that lost its disk; the source, its replication slot and storage are kept). The second run finds within
 * seconds that the ACTIVE group's offsets refer to a log that is gone, rebuilds the table log by snapshot and deploys
 * a replacement group; the lost group keeps serving its last checkpoint until the replacement is ACTIVE, which then
 * serves the source as it is, including a change made while Kafka was gone.
 */
@RealServices
class LostTableLogIT {

    private static final Duration DETECTION = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aRunOnANewKafkaLogRebuildsItWhileTheLostGroupKeepsServing(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(5, 20, 200).load(c);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        Path configFile = TestConfigFile.write(dir, services, source, storage, rules, 2, 50);
        long lostGroup;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            lostGroup = Deployments.deploy(c, SampleDataset.syncRules()).id();
        }
        TributaryConfig first = ConfigLoader.load(Optional.of(configFile), Map.of());
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

        Files.writeString(configFile, Files.readString(configFile).replace("topic_prefix: " + services.topicPrefix(),
            "topic_prefix: " + services.topicPrefix() + "new."));
        TributaryConfig second = ConfigLoader.load(Optional.of(configFile), Map.of());
        try (Environment environment = Environment.start(second, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(second, environment, Role.ALL, Files.createDirectory(dir.resolve("b")),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            long replacement = await("a replacement of group " + lostGroup).atMost(DETECTION)
                .until(() -> newest(storage).id(), id -> id > lostGroup);
            assertThat(group(storage, replacement).content()).isEqualTo(group(storage, lostGroup).content());

            await("replacement " + replacement + " ACTIVE").atMost(Duration.ofSeconds(120)).until(() -> {
                SyncRulesGroup lost = group(storage, lostGroup);
                if (lost.state() == GroupState.ACTIVE) {
                    assertThat(lost.checkpoint()).as("the lost group's checkpoint while it serves").contains(served);
                }
                return group(storage, replacement).state() == GroupState.ACTIVE;
            });
            assertThat(group(storage, lostGroup).state()).isIn(GroupState.STOP, GroupState.TERMINATED);
            assertThat(pipeline.problem()).isEmpty();
            try (Connection src = source.connect(); Connection st = storage.connect()) {
                Map<String, StorageContents.Bucket> expected = StorageContents.expected(src, SampleDataset.syncRules());
                await("the replacement serves the source").atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(StorageContents.served(st, replacement)).isEqualTo(expected));
            }
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
