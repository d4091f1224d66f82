package io.tributary.launcher.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.TcpProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up meets services that are not up yet: it waits for those that come, and names those that do not. */
@RealServices
class EnvironmentIT {

    @TempDir
    Path dir;

    @Test
    void aStorageThatAnswersLateIsWaitedFor(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (TcpProxy storage = TcpProxy.inFrontOf(db.jdbcUrl())) {
            storage.setRefusing(true);
            CompletableFuture.runAsync(() -> storage.setRefusing(false),
                CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS));
            long started = System.nanoTime();

            try (Environment environment = Environment.start(config(services, db, storage.route(db.jdbcUrl())),
                StartupWait.upTo(Duration.ofSeconds(60)))) {
                assertThat(environment.storage().url()).contains(":" + storage.port() + "/");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void aStorageThatStaysDownEndsTheWaitNamingTheKeyAndTheWait(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (TcpProxy storage = TcpProxy.inFrontOf(db.jdbcUrl())) {
            storage.setRefusing(true);

            assertThatThrownBy(() -> Environment.start(config(services, db, storage.route(db.jdbcUrl())),
                StartupWait.upTo(Duration.ofSeconds(1))))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("storage database at " + storage.route(db.jdbcUrl()))
                .hasMessageContaining("storage.url")
                .hasMessageContaining("gave up after waiting 1 s (startup.wait_seconds)");
        }
    }

    @Test
    void aMissingDatabaseIsNotWaitedFor(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String missing = db.jdbcUrl().replace("/" + db.name(), "/" + db.name() + "_missing");
        long started = System.nanoTime();

        assertThatThrownBy(() -> Environment.start(config(services, db, missing),
            StartupWait.upTo(Duration.ofSeconds(120))))
            .isInstanceOf(ServiceUnavailableException.class)
            .hasMessageContaining("storage database at " + missing)
            .hasMessageContaining("does not exist")
            .hasMessageNotContaining("gave up after waiting");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
    }

    private TributaryConfig config(TestServices services, PostgresDatabase source, String storageUrl)
        throws Exception {
        Path file = Files.writeString(dir.resolve("tributary.yaml"), String.join("\n",
            "source:",
            "  url: " + source.jdbcUrl(),
            "  user: " + source.user(),
            "  password: '" + source.password() + "'",
            "storage:",
            "  url: " + storageUrl,
            "  user: " + source.user(),
            "  password: '" + source.password() + "'",
            "kafka:",
            "  bootstrap_servers: " + services.kafkaBootstrapServers(),
            "metrics:",
            "  port: 0",
            ""));
        return ConfigLoader.load(Optional.of(file), Map.of());
    }
}
