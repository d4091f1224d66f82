package io.tributary.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.env.SampleDataset;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.FreePorts;
import io.tributary.testing.process.ChildProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The production jar ({@code target/tributary.jar}) as it is shipped: without the embedded services and the
 * non-Linux native libraries, and still every role of a run against real Kafka and Postgres.
 */
@RealServices
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "tributary.jar");
    private static final Path LOGS = Path.of("target", "production-jar-it");
    private static final Path SAMPLE_RULES = Path.of("..", "launcher", "src", "main", "resources", "io", "tributary",
        "launcher", "sample", "sync-rules.yaml");

    @Test
    void leavesOutTheEmbeddedServicesAndNonLinuxNatives() throws IOException {
        List<String> entries = entries();
        assertThat(entries).as("the Kafka broker, Scala and the Kafka test kit")
            .noneMatch(name -> name.startsWith("kafka/server/") || name.startsWith("scala/")
                || name.startsWith("org/apache/kafka/common/test/") || name.startsWith("org/apache/kafka/raft/"));
        assertThat(entries).as("embedded Postgres and its server binaries")
            .noneMatch(name -> name.startsWith("io/zonky/") || name.startsWith("io/tributary/embedded/")
                || name.startsWith("postgres-"));
        assertThat(entries).as("RocksDB builds for other platforms")
            .noneMatch(name -> name.startsWith("librocksdbjni-osx") || name.startsWith("librocksdbjni-win"));
        assertThat(entries).contains("librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so",
            "io/tributary/launcher/Main.class", "org/apache/kafka/streams/KafkaStreams.class");
    }

    @Test
    void printsTheVersionOfItsManifest() throws Exception {
        Result result = run("version", List.of("--version"), Map.of());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("tributary " + System.getProperty("tributary.version"));
    }

    @Test
    void namesTheKeysToSetWhereTheEmbeddedDefaultWouldStart() throws Exception {
        Result result = run("no-services", List.of("run", "--until-caught-up"), Map.of());
        assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
        assertThat(result.output()).contains("source.url").contains("storage.url").contains("kafka.bootstrap_servers")
            .contains("no embedded services").doesNotContain("NoClassDefFoundError");
    }

    @Test
    void replicatesUntilCaughtUpAgainstRealServices(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(20, 100, 1_000).load(c);
        }
        String slot = services.uniqueName("slot");
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("TRIBUTARY_SOURCE_URL", source.jdbcUrl());
        environment.put("TRIBUTARY_SOURCE_USER", source.user());
        environment.put("TRIBUTARY_SOURCE_PASSWORD", source.password());
        environment.put("TRIBUTARY_STORAGE_URL", storage.jdbcUrl());
        environment.put("TRIBUTARY_STORAGE_USER", storage.user());
        environment.put("TRIBUTARY_STORAGE_PASSWORD", storage.password());
        environment.put("TRIBUTARY_KAFKA_BOOTSTRAP_SERVERS", services.kafkaBootstrapServers());
        environment.put("TRIBUTARY_KAFKA_TOPIC_PREFIX", services.topicPrefix());
        environment.put("TRIBUTARY_KAFKA_PARTITIONS", "2");
        environment.put("TRIBUTARY_REPLICATION_SLOT_NAME", slot);
        environment.put("TRIBUTARY_REPLICATION_PUBLICATION_NAME", slot);
        environment.put("TRIBUTARY_SYNC_RULES", SAMPLE_RULES.toAbsolutePath().normalize().toString());
        environment.put("TRIBUTARY_METRICS_PORT", String.valueOf(FreePorts.pick()));

        Result result = run("replication", List.of("run", "--until-caught-up"), environment);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("Caught up in");
    }

    private static List<String> entries() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            return jar.stream().map(ZipEntry::getName).toList();
        }
    }

    private static Result run(String name, List<String> args, Map<String, String> environment) throws Exception {
        assertThat(JAR).as("the production jar, built in the package phase").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx512m", "-XX:+UseSerialGC", "-jar", JAR.toAbsolutePath().toString()));
        command.addAll(args);
        Path log = LOGS.resolve(name + ".log");
        Process process = ChildProcess.start(name, command, environment, log);
        try {
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("%s exits within 180 s", name).isTrue();
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }

    private record Result(int exitCode, String output) {
    }
}
