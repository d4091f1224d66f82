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
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.lifecycle.Deployments;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group becomes ACTIVE as soon as its first complete checkpoint is published, not at the storage supervisor's
 * next periodic pass: with a pass only every ten minutes (after the one at start), the first group still becomes
 * ACTIVE within seconds of its snapshot.
 */
@RealServices
class PromptActivationIT {

    private static final Duration NO_PERIODIC_PASS = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    @Test
    void theFirstCheckpointMakesTheGroupActiveWithoutWaitingForAPeriodicPass(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(5, 20, 200).load(c);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        TributaryConfig config = ConfigLoader.load(
            Optional.of(TestConfigFile.write(dir, services, source, storage, rules, 2, 500)), Map.of());
        long group;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            group = Deployments.deploy(c, SampleDataset.syncRules()).id();
        }

        Path state = Files.createDirectory(dir.resolve("state"));
        try (Environment environment = Environment.start(config, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(config, environment, Role.ALL, state, new SimpleMeterRegistry(),
                 StartupWait.NONE, NO_PERIODIC_PASS)) {
            await("group " + group + " ACTIVE").atMost(Duration.ofSeconds(90))
                .until(() -> state(storage, group) == GroupState.ACTIVE);
            assertThat(pipeline.problem()).isEmpty();
        }
    }

    private static GroupState state(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.find(c, group).map(SyncRulesGroup::state).orElseThrow();
        }
    }
}
