package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.launcher.deploy.MetricCatalog;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as operators run it: a separate process of every role (the sync API too) serving health and
 * metrics while it replicates, every metric the deployment files query among them, and stopping within seconds
 * on SIGTERM, handing its work back.
 */
@RealServices
class RunProcessIT {

    /** The date and time a log line starts with. */
    private static final String DATE = "^\\d{4}-\\d{2}-\\d{2} [0-9:.]+";
    /** A development HS256 key (256 bits, base64url): the sync API starts only with a key to verify tokens. */
    private static final String SIGNING_KEY = "dGhpcy1pcy1hLXRlc3Qta2V5LW9mLXRoaXJ0eS10d28tYnl0ZXM";

    private static final Path JAR = Path.of("target", "tributary.jar");

    @TempDir
    Path dir;

    @Test
    void servesHealthAndMetricsAndStopsPromptlyOnSigterm(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(20, 100, 2_000).load(c);
        }
        Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        int port = FreePorts.pick();
        int apiPort = FreePorts.pick();
        String slot = services.uniqueName("slot");
        Path config = Files.writeString(dir.resolve("tributary.yaml"), String.join("\n",
            "source:", "  url: " + source.jdbcUrl(), "  user: " + source.user(),
            "storage:", "  url: " + storage.jdbcUrl(), "  user: " + storage.user(),
            "kafka:", "  bootstrap_servers: " + services.kafkaBootstrapServers(),
            "  topic_prefix: " + services.topicPrefix(), "  partitions: 2",
            "sync_rules: rules.yaml",
            "replication:", "  slot_name: " + slot, "  publication_name: " + slot,
            "metrics:", "  port: " + port,
            "api:", "  port: " + apiPort,
            "client_auth:", "  jwks:", "    keys:", "      - kty: oct", "        alg: HS256", "        kid: test",
            "        k: " + SIGNING_KEY, ""));
        Path log = dir.resolve("run.log");
        Process process = new ProcessBuilder("java", "-jar", JAR.toAbsolutePath().toString(), "run", "--config",
            config.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Files.readString(log).contains("checkpoint 0/"));
            assertThat(get(http, port, "/health/live").statusCode()).isEqualTo(200);
            assertThat(get(http, port, "/health/ready").statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(http, port, "/metrics").body())
                .contains("pending_snapshot_count")
                .contains("active_stream_count 1.0")
                .contains("tributary_replication_lag_seconds")
                .contains("tributary_storage_write_seconds_count{sync_rules_group=\"1\"}")
                .contains("tributary_storage_ops_total{sync_rules_group=\"1\"}")
                .contains("tributary_consumer_lag{consumer_group=\"" + services.topicPrefix()
                    + "storage-writer-g1\"}"));
            assertThat(metricNames(get(http, port, "/metrics").body()))
                .as("every metric a dashboard, an alert rule or an autoscaler may query, from a process of every role")
                .containsAll(MetricCatalog.TRIBUTARY).containsAll(MetricCatalog.ALIASES)
                .containsAll(MetricCatalog.TRIBUTARY_BY_ROLE)
                .as("Kafka's producer, consumer, admin and Streams metrics, bound through Micrometer")
                .anyMatch(name -> name.startsWith("kafka_producer_"))
                .anyMatch(name -> name.startsWith("kafka_consumer_fetch_manager_"))
                .anyMatch(name -> name.startsWith("kafka_admin_client_"))
                .anyMatch(name -> name.startsWith("kafka_stream_thread_"));

            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("stopped within 30 s of SIGTERM").isTrue();
            assertThat(Files.readString(log)).contains("Shutting down");
            List<String> lines = Files.readAllLines(log);
            assertThat(lines).as("log lines with the date, the level, the role and the thread")
                .anyMatch(line -> line.matches(DATE + " INFO  \\[all\\] \\[[^]]+\\] i\\.t\\..*"));
            assertThat(lines).as("warnings and errors of libraries: start-up noise stays off the console")
                .filteredOn(line -> line.matches(DATE + " (WARN|ERROR) .*"))
                .allMatch(line -> line.matches(".*\\] (i\\.t\\.|io\\.tributary\\.)\\S* - .*"));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n--- process output ---\n" + Files.readString(log), e);
        } finally {
            process.destroyForcibly();
        }
    }

    /** The metric names of a Prometheus text exposition (a sample's name, before its labels or value). */
    private static Set<String> metricNames(String exposition) {
        return exposition.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
            .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
