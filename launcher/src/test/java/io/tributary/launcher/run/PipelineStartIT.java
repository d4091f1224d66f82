package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.StartupWait;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of a role start on two threads (capture: ingest, planner, snapshot workers; consumers: stream workers,
 * storage writers): a part that cannot start fails the start and stops the parts started beside it.
 */
@RealServices
class PipelineStartIT {

    @TempDir
    Path dir;

    @Test
    void aConsumerThatCannotStartStopsTheCapturePartsStartedBesideIt(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        source.execute("CREATE TABLE items (id int PRIMARY KEY)");
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        TributaryConfig config = ConfigLoader.load(
            Optional.of(TestConfigFile.write(dir, services, source, storage, rules, 2, 500)), Map.of());
        Path notADirectory = Files.writeString(dir.resolve("state"), "a file where the state directory goes");
        String ingest = "tributary-ingest-supervisor-" + config.replication().slotName();

        try (Environment environment = Environment.start(config, StartupWait.NONE)) {
            assertThatThrownBy(() -> Pipeline.start(config, environment, Role.ALL, notADirectory,
                new SimpleMeterRegistry(), StartupWait.NONE))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("Cannot create the state directory");
        }

        await("ingest, started beside the stream workers, stopped").atMost(Duration.ofSeconds(60))
            .until(() -> !threadAlive(ingest));
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && t.getName().equals(name));
    }
}
