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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The production jar ({@code target/tributary.jar}) and the image's two layers ({@code target/image}) as they are
 * shipped: without the embedded services and the non-Linux native libraries, the layers holding the jar's classes
 * and starting from the image's class path, and the jar running every role against real Kafka and Postgres.
 */
@RealServices
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "tributary.jar");
    private static final Path IMAGE = Path.of("target", "image");
    private static final Path LOGS = Path.of("target", "production-jar-it");
    private static final Path SAMPLE_RULES = Path.of("..", "launcher", "src", "main", "resources", "io", "tributary",
        "launcher", "sample", "sync-rules.yaml");

    @Test
    void leavesOutTheEmbeddedServicesAndNonLinuxNatives() throws IOException {
        List<String> entries = entries(JAR);
        assertThat(entries).as("the Kafka broker, its controller and log layers, Scala and the Kafka test kit")
            .noneMatch(name -> name.startsWith("kafka/server/") || name.startsWith("kafka/log/")
                || name.startsWith("scala/") || name.startsWith("org/apache/kafka/common/test/")
                || name.startsWith("org/apache/kafka/raft/") || name.startsWith("org/apache/kafka/controller/")
                || name.startsWith("org/apache/kafka/metadata/") || name.startsWith("org/apache/kafka/image/")
                || name.startsWith("org/apache/kafka/storage/internals/")
                || name.startsWith("org/apache/kafka/coordinator/"));
        assertThat(entries).as("embedded Postgres and its server binaries")
            .noneMatch(name -> name.startsWith("io/zonky/") || name.startsWith("io/tributary/embedded/")
                || name.startsWith("postgres-") || name.endsWith(".txz"));
        assertThat(entries).as("RocksDB builds: Linux x86_64 and aarch64, glibc and musl, only")
            .filteredOn(name -> name.startsWith("librocksdbjni"))
            .containsExactlyInAnyOrder("librocksdbjni-linux64.so", "librocksdbjni-linux64-musl.so",
                "librocksdbjni-linux-aarch64.so", "librocksdbjni-linux-aarch64-musl.so");
        assertThat(entries).as("native libraries of other operating systems")
            .noneMatch(name -> name.endsWith(".dylib") || name.endsWith(".jnilib") || name.endsWith(".dll"));
        assertThat(entries).contains("io/tributary/launcher/Main.class",
            "org/apache/kafka/streams/KafkaStreams.class");
    }

    @Test
    void theImageLayersTheDockerfileCopiesHoldTheProductionJarsClasses() throws IOException {
        String dockerfile = Files.readString(Path.of("..", "Dockerfile"), StandardCharsets.UTF_8);
        List<Path> layers = List.of(IMAGE.resolve("tributary-dependencies.jar"),
            IMAGE.resolve("tributary-application.jar"));
        for (Path layer : layers) {
            assertThat(dockerfile).contains("distribution/target/image/" + layer.getFileName());
            assertThat(layer).as("an image layer, built in the package phase").isRegularFile();
        }
        Set<String> classes = new TreeSet<>();
        for (Path layer : layers) {
            entries(layer).stream().filter(name -> name.endsWith(".class")).forEach(classes::add);
        }
        assertThat(classes).isEqualTo(entries(JAR).stream().filter(name -> name.endsWith(".class"))
            .collect(Collectors.toCollection(TreeSet::new)));
        assertThat(entries(layers.get(1))).allMatch(name -> !name.endsWith(".class")
            || name.startsWith("io/tributary/"), "Tributary's own classes only");
    }

    @Test
    void theImagesEntrypointClassPathRuns() throws Exception {
        String classPath = IMAGE.resolve("tributary-application.jar").toAbsolutePath() + java.io.File.pathSeparator
            + IMAGE.resolve("tributary-dependencies.jar").toAbsolutePath();
        Result result = run("image-version", List.of("-cp", classPath, "io.tributary.launcher.Main", "--version"),
            Map.of());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("tributary " + System.getProperty("tributary.version"));
    }

    @Test
    void printsTheVersionOfItsManifest() throws Exception {
        Result result = run("version", List.of("-jar", JAR.toAbsolutePath().toString(), "--version"), Map.of());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("tributary " + System.getProperty("tributary.version"));
    }

    @Test
    void namesTheKeysToSetWhereTheEmbeddedDefaultWouldStart() throws Exception {
        Result result = run("no-services", List.of("-jar", JAR.toAbsolutePath().toString(), "run",
            "--until-caught-up"), Map.of());
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

        Result result = run("replication", List.of("-jar", JAR.toAbsolutePath().toString(), "run",
            "--until-caught-up"), environment);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("Caught up in");
    }

    private static List<String> entries(Path file) throws IOException {
        try (JarFile jar = new JarFile(file.toFile())) {
            return jar.stream().map(ZipEntry::getName).toList();
        }
    }

    private static Result run(String name, List<String> args, Map<String, String> environment) throws Exception {
        assertThat(JAR).as("the production jar, built in the package phase").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx512m", "-XX:+UseSerialGC"));
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
