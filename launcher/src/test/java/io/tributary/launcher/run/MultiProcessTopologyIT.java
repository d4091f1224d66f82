package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.deploy.ComposeFile;
import io.tributary.launcher.deploy.ComposeService;
import io.tributary.launcher.deploy.GrafanaDashboard;
import io.tributary.launcher.deploy.LauncherProcess;
import io.tributary.launcher.deploy.MetricCatalog;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.FreePorts;
import io.tributary.topics.TopicNames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * docker-compose.yml's topology without Docker: each Tributary service of the compose file runs as separate
 * {@code java -jar tributary.jar} processes with the service's command and environment (connection settings
 * pointed at the test's Kafka and two fresh Postgres databases, and the mounted sync rules file at its path in
 * the repository), scaled like {@code docker compose up --scale snapshot-worker=2 --scale storage-writer=2}.
 * Compose starts them together; here the workers start first and the ingest, which deploys the rules and plans
 * the snapshot, once both snapshot workers joined their group, so the snapshot's chunks are split between them; the
 * api starts with the ingest. A client then syncs a user's buckets from the api with a token of the compose file's
 * development key.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiProcessTopologyIT {

    private static final Path JAR = Path.of("target", "tributary.jar");
    private static final Path LOGS = Path.of("target", "multi-process-topology-it");
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration CONVERGENCE = Duration.ofSeconds(120);
    private static final String SYNC_RULES = "TRIBUTARY_SYNC_RULES";
    private static final String API_PORT = "TRIBUTARY_API_PORT";
    private static final String API_KEYS = "TRIBUTARY_CLIENT_AUTH_JWKS_KEYS";

    /** Processes per compose service: one ingest, scaled snapshot workers and storage writers. */
    private static final Map<String, Integer> SCALE = scale();

    private final List<LauncherProcess> processes = new ArrayList<>();
    private final Map<String, Integer> workersPerProcess = new LinkedHashMap<>();
    private ComposeFile compose;
    private PostgresDatabase storage;
    private String prefix;
    private String bootstrapServers;
    private Map<String, StorageContents.Bucket> expected;
    /** The api process's sync API port (compose maps its api.port to the host). */
    private int apiPort;

    private static Map<String, Integer> scale() {
        Map<String, Integer> scale = new LinkedHashMap<>();
        scale.put("ingest", 1);
        scale.put("snapshot-worker", 2);
        scale.put("stream-worker", 1);
        scale.put("storage-writer", 2);
        scale.put("api", 1);
        return scale;
    }

    @BeforeAll
    void startTheComposeServicesAsProcesses(TestServices services) throws Throwable {
        compose = ComposeFile.repository();
        PostgresDatabase source = services.newDatabase();
        storage = services.newDatabase();
        prefix = services.topicPrefix();
        bootstrapServers = services.kafkaBootstrapServers();
        try (Connection c = source.connect()) {
            new SampleDataset(50, 300, 5_000).load(c);
        }
        String slot = services.uniqueName("slot");
        Map<String, String> fixture = new LinkedHashMap<>();
        fixture.put("TRIBUTARY_SOURCE_URL", source.jdbcUrl());
        fixture.put("TRIBUTARY_SOURCE_USER", source.user());
        fixture.put("TRIBUTARY_SOURCE_PASSWORD", source.password());
        fixture.put("TRIBUTARY_STORAGE_URL", storage.jdbcUrl());
        fixture.put("TRIBUTARY_STORAGE_USER", storage.user());
        fixture.put("TRIBUTARY_STORAGE_PASSWORD", storage.password());
        fixture.put("TRIBUTARY_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        fixture.put("TRIBUTARY_KAFKA_TOPIC_PREFIX", prefix);
        fixture.put("TRIBUTARY_KAFKA_PARTITIONS", "4");
        fixture.put("TRIBUTARY_REPLICATION_SLOT_NAME", slot);
        fixture.put("TRIBUTARY_REPLICATION_PUBLICATION_NAME", slot);
        fixture.put("TRIBUTARY_REPLICATION_SNAPSHOT_CHUNK_ROWS", "500");

        withLogs(() -> {
            Path rules = rulesFile(compose.service("ingest"));
            try (Connection c = source.connect()) {
                expected = StorageContents.expected(c, Files.readString(rules));
            }
            assertThat(expected).isNotEmpty();
            for (String service : List.of("snapshot-worker", "stream-worker", "storage-writer")) {
                startService(service, fixture);
            }
            awaitReady();
            String snapshotGroup = SnapshotWorkerConfig.consumerGroup(new TopicNames(prefix));
            int snapshotMembers = SCALE.get("snapshot-worker") * workersPerProcess.get("snapshot-worker");
            try (Admin admin = admin()) {
                await().atMost(START).pollInterval(Duration.ofMillis(500))
                    .failFast("a Tributary process exited", this::anyProcessExited)
                    .until(() -> describe(admin, snapshotGroup), group -> group.members().size() == snapshotMembers
                        && group.groupState() == org.apache.kafka.common.GroupState.STABLE);
            }
            startService("ingest", fixture);
            startService("api", fixture);
            awaitReady();
        });
    }

    @AfterAll
    void stopProcesses() {
        processes.forEach(LauncherProcess::stop);
        processes.forEach(LauncherProcess::close);
    }

    @Test
    void storageServesTheRulesOverTheSourceOnceTheGroupIsActive() throws Throwable {
        withLogs(() -> {
            SyncRulesGroup group = awaitActiveGroup();
            try (Connection c = storage.connect()) {
                assertThat(StorageContents.served(c, group.id())).isEqualTo(expected);
            }
        });
    }

    @Test
    void bothSnapshotWorkerProcessesReadChunksOfTheSnapshot() throws Throwable {
        withLogs(() -> {
            awaitActiveGroup();
            String group = SnapshotWorkerConfig.consumerGroup(new TopicNames(prefix));
            try (Admin admin = admin()) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
                Map<String, Long> tasksByProcess = new TreeMap<>();
                for (MemberDescription member : describe(admin, group).members()) {
                    String process = member.clientId().substring(group.length() + 1).split("-")[0];
                    for (TopicPartition partition : member.assignment().topicPartitions()) {
                        OffsetAndMetadata offset = committed.get(partition);
                        tasksByProcess.merge(process, offset == null ? 0 : offset.offset(), Long::sum);
                    }
                }
                assertThat(tasksByProcess).as("chunk tasks committed on the partitions of each process")
                    .hasSize(SCALE.get("snapshot-worker")).allSatisfy((process, tasks) -> assertThat(tasks)
                        .as(process).isPositive());
            }
        });
    }

    @Test
    void everyScaledProcessJoinsItsConsumerGroup() throws Throwable {
        withLogs(() -> {
            long groupId = await().atMost(CONVERGENCE).failFast("a Tributary process exited", this::anyProcessExited)
                .until(this::newestGroup, Optional::isPresent).orElseThrow().id();
            Map<String, Integer> expectedMembers = Map.of(
                SnapshotWorkerConfig.consumerGroup(new TopicNames(prefix)),
                SCALE.get("snapshot-worker") * workersPerProcess.get("snapshot-worker"),
                new SyncRulesGroup(groupId, "", GroupState.ACTIVE, Optional.empty(), false).consumerGroup(prefix),
                SCALE.get("storage-writer") * workersPerProcess.get("storage-writer"));
            try (Admin admin = admin()) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .failFast("a Tributary process exited", this::anyProcessExited)
                    .untilAsserted(() -> assertThat(members(admin, expectedMembers.keySet()))
                        .isEqualTo(expectedMembers));
            }
        });
    }

    @Test
    void everyProcessServesTheTributaryMetricsTheDashboardQueries() throws Throwable {
        Set<String> queried = new TreeSet<>(GrafanaDashboard.repository().metricNames());
        queried.removeAll(MetricCatalog.KAFKA_EXPORTER);
        queried.removeAll(MetricCatalog.PROMETHEUS);
        queried.removeAll(MetricCatalog.TRIBUTARY_BY_ROLE);
        queried.addAll(MetricCatalog.TRIBUTARY);
        queried.addAll(MetricCatalog.ALIASES);
        withLogs(() -> {
            for (LauncherProcess process : processes) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        Set<String> served = metricNames(process.metrics());
                        assertThat(served).as(process.name()).containsAll(queried)
                            .as("%s binds its Kafka clients", process.name())
                            .anyMatch(name -> name.startsWith("kafka_admin_client_"));
                        if (process.name().startsWith("ingest")) {
                            assertThat(served).contains("tributary_replication_slot_retained_wal_bytes",
                                "tributary_replication_slot_confirmed_flush_lag_bytes");
                        }
                        if (process.name().startsWith("storage-writer")) {
                            assertThat(served).contains("tributary_storage_write_seconds_bucket",
                                "tributary_storage_dead_letters_total", "tributary_storage_retries_total");
                        }
                    });
            }
        });
    }

    @Test
    void theApiServiceServesAUserEveryOpOfTheirBucketsWithATokenOfItsKey() throws Throwable {
        withLogs(() -> {
            awaitActiveGroup();
            Map<String, String> environment = compose.service("api").environment();
            OctetSequenceKey key = (OctetSequenceKey) JWKSet.parse("{\"keys\":" + environment.get(API_KEYS) + "}")
                .getKeys().get(0);
            String audience = ConfigLoader.load(Optional.empty(), environment).api().auth().audience().iterator()
                .next();
            String token = DevelopmentTokens.mint(key, audience, SyncApi.SAMPLE_USER, Duration.ofMinutes(10),
                Instant.now());
            HttpResponse<Stream<String>> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + apiPort + "/sync/stream")).timeout(Duration.ofMinutes(2))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"raw_data\":true}")).build(),
                HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            long announced = -1;
            long received = 0;
            try (Stream<String> lines = response.body()) {
                Iterator<String> it = lines.iterator();
                while (it.hasNext()) {
                    JsonNode line = new ObjectMapper().readTree(it.next());
                    if (line.has("checkpoint")) {
                        announced = 0;
                        for (JsonNode bucket : line.at("/checkpoint/buckets")) {
                            announced += bucket.get("count").asLong();
                        }
                    } else if (line.has("data")) {
                        received += line.at("/data/data").size();
                    } else if (line.has("checkpoint_complete")) {
                        break;
                    }
                }
            }
            assertThat(announced).as("ops of the user's buckets at the checkpoint").isPositive();
            assertThat(received).isEqualTo(announced);
        });
    }

    /** The newest sync rules group, once it is ACTIVE with a checkpoint. */
    private SyncRulesGroup awaitActiveGroup() {
        return await().atMost(CONVERGENCE).pollInterval(Duration.ofSeconds(1))
            .failFast("a Tributary process exited", this::anyProcessExited)
            .until(this::newestGroup, newest -> newest.filter(group -> group.state() == GroupState.ACTIVE)
                .flatMap(SyncRulesGroup::checkpoint).isPresent())
            .orElseThrow();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    private static ConsumerGroupDescription describe(Admin admin, String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
    }

    private void startService(String name, Map<String, String> fixture) {
        ComposeService service = compose.service(name);
        Map<String, String> environment = new LinkedHashMap<>(service.environment());
        environment.putAll(fixture);
        environment.put("LANG", "C.UTF-8");
        if (environment.containsKey(SYNC_RULES)) {
            environment.put(SYNC_RULES, rulesFile(service).toString());
        }
        workersPerProcess.put(name, ConfigLoader.load(Optional.empty(), environment).replication()
            .workersPerProcess());
        for (int i = 1; i <= SCALE.get(name); i++) {
            int port = FreePorts.pick();
            environment.put("TRIBUTARY_METRICS_PORT", Integer.toString(port));
            if (environment.containsKey(API_PORT)) {
                apiPort = FreePorts.pick();
                environment.put(API_PORT, Integer.toString(apiPort));
            }
            processes.add(LauncherProcess.start(name + "-" + i, JAR, service.command(), environment, port,
                LOGS.toAbsolutePath()));
        }
    }

    /** The host file compose mounts where the service's TRIBUTARY_SYNC_RULES points. */
    private Path rulesFile(ComposeService service) {
        String target = service.environment().get(SYNC_RULES);
        return service.hostPathOf(target, compose.directory())
            .orElseThrow(() -> new AssertionError(service.name() + " does not mount " + target));
    }

    private void awaitReady() {
        await().atMost(START).pollInterval(Duration.ofMillis(500))
            .failFast("a Tributary process exited", this::anyProcessExited)
            .until(() -> processes.stream().allMatch(LauncherProcess::ready));
    }

    private boolean anyProcessExited() {
        return processes.stream().anyMatch(process -> !process.isAlive());
    }

    private Optional<SyncRulesGroup> newestGroup() throws Exception {
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            return groups.isEmpty() ? Optional.empty() : Optional.of(groups.get(groups.size() - 1));
        }
    }

    private static Map<String, Integer> members(Admin admin, Set<String> groups) throws Exception {
        Map<String, Integer> members = new LinkedHashMap<>();
        for (ConsumerGroupDescription description : admin.describeConsumerGroups(groups).all().get().values()) {
            members.put(description.groupId(), description.members().size());
        }
        return members;
    }

    private static Set<String> metricNames(String scrape) {
        Set<String> names = new TreeSet<>();
        scrape.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
            .map(line -> line.split("[{ ]", 2)[0]).forEach(names::add);
        return names;
    }

    /** Runs {@code body}; a failure carries the tail of every process's output. */
    private void withLogs(Executable body) throws Throwable {
        try {
            body.execute();
        } catch (AssertionError | RuntimeException e) {
            StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
            for (LauncherProcess process : processes) {
                message.append("\n--- ").append(process.name()).append(process.isAlive() ? "" : " (exited)")
                    .append(" ---\n").append(process.logTail(60));
            }
            throw new AssertionError(message.toString(), e);
        }
    }
}
