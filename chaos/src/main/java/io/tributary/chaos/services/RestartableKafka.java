package io.tributary.chaos.services;

import io.tributary.testing.net.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A one-node Kafka cluster (KRaft, combined broker and controller) in its own JVM, running {@code kafka.Kafka}
 * from the {@code kafka_2.13} jar on this JVM's class path, that can be stopped ({@code SIGTERM}, a controlled
 * shutdown), killed ({@code SIGKILL}) and started again on the same ports with its logs kept. Clients keep their
 * {@link #bootstrapServers()}: the advertised listener never changes.
 *
 * <p>Lifecycle: {@link #create(Path)} formats the storage and starts the broker; then {@link #stop()},
 * {@link #kill()}, {@link #start()} and {@link #replaceWithNewCluster()} in any order ({@code start} of a running
 * broker is an error).
 * {@link #close()} kills it and keeps the directory (the caller owns it). Thread-safe (methods are synchronized).
 */
public final class RestartableKafka implements RestartableService {

    /** Under the directory: the broker's data (its {@code log.dirs}, the metadata log included). */
    private static final String LOG_DIRECTORY = "logs";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    /** Small heap and C1 only: a restart is mostly JVM start-up on a busy small machine. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true");
    /** As embedded's EmbeddedKafka: settings a one-node cluster needs, or groups and transactions hang. */
    private static final Map<String, String> ONE_NODE_SETTINGS = Map.ofEntries(
        Map.entry("offsets.topic.replication.factor", "1"),
        Map.entry("offsets.topic.num.partitions", "4"),
        Map.entry("transaction.state.log.replication.factor", "1"),
        Map.entry("transaction.state.log.min.isr", "1"),
        Map.entry("transaction.state.log.num.partitions", "4"),
        Map.entry("share.coordinator.state.topic.replication.factor", "1"),
        Map.entry("share.coordinator.state.topic.min.isr", "1"),
        Map.entry("group.initial.rebalance.delay.ms", "0"),
        Map.entry("auto.create.topics.enable", "false"),
        Map.entry("log.cleaner.backoff.ms", "1000"));
    /** A restarted node re-registers under a new incarnation only once the old one's session expired. */
    private static final Map<String, String> FAST_RESTART_SETTINGS = Map.of(
        "broker.session.timeout.ms", "2000",
        "broker.heartbeat.interval.ms", "500");
    private static final String LOGBACK = """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <logger name="kafka" level="INFO"/>
          <logger name="org.apache.kafka" level="INFO"/>
          <logger name="org.apache.kafka.clients" level="WARN"/>
          <logger name="org.apache.kafka.common.config" level="WARN"/>
          <root level="WARN"><appender-ref ref="OUT"/></root>
        </configuration>
        """;

    private final Path directory;
    private final Path config;
    private final Path log;
    private final int brokerPort;
    private Optional<ServerProcess> process = Optional.empty();

    private RestartableKafka(Path directory, int brokerPort) {
        this.directory = directory;
        this.config = directory.resolve("server.properties");
        this.log = directory.resolve("kafka.log");
        this.brokerPort = brokerPort;
    }

    /**
     * Creates a broker whose configuration, logs and output live in {@code directory} (created if needed; it must
     * not hold a broker yet), on free loopback ports, formats its storage and starts it.
     *
     * @throws ServiceException if it does not start and answer within 90 s
     */
    public static RestartableKafka create(Path directory) {
        Objects.requireNonNull(directory, "directory");
        int brokerPort = FreePorts.pick();
        int controllerPort = FreePorts.pick();
        RestartableKafka kafka = new RestartableKafka(directory.toAbsolutePath(), brokerPort);
        kafka.writeConfig(controllerPort);
        kafka.format();
        kafka.start();
        return kafka;
    }

    /**
     * A new cluster at the same address, as after a broker's disk was replaced: {@code kill -9} of the broker, its
     * data (every topic, the metadata log, consumer group offsets, transaction state) deleted, the storage formatted
     * under a new cluster id, and the broker started again on the same ports. Clients keep their
     * {@link #bootstrapServers()} and find no topic.
     *
     * @return the new cluster id
     * @throws ServiceException if it does not start and answer within 90 s
     */
    public synchronized String replaceWithNewCluster() {
        kill();
        Path data = directory.resolve(LOG_DIRECTORY);
        try (Stream<Path> files = Files.walk(data)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the data of Kafka at " + bootstrapServers() + " in " + data,
                e);
        }
        String clusterId = format();
        start();
        return clusterId;
    }

    /** {@code bootstrap.servers} for clients: {@code 127.0.0.1:<port>}, the same across restarts. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /**
     * Starts the broker and waits until it answers a metadata request (its logs are recovered by then).
     *
     * @throws IllegalStateException if it runs
     * @throws ServiceException      if it does not answer within 90 s (its process is killed then)
     */
    public synchronized void start() {
        if (isRunning()) {
            throw new IllegalStateException("Kafka at " + bootstrapServers() + " is running");
        }
        process = Optional.of(ServerProcess.startAndAwait("kafka", javaCommand("kafka.Kafka", config.toString()), log,
            "Kafka at " + bootstrapServers(), READY_TIMEOUT, this::answers));
    }

    /**
     * Stops the broker gracefully ({@code SIGTERM}: controlled shutdown, logs flushed) and waits until it is gone;
     * kills it if it takes longer than 60 s. No-op if it is not running.
     */
    public synchronized void stop() {
        process.ifPresent(broker -> {
            broker.terminate();
            broker.awaitExitOrKill(STOP_TIMEOUT, "Kafka at " + bootstrapServers());
        });
        process = Optional.empty();
    }

    /** {@code kill -9} of the broker; returns once it is gone. No-op if it is not running. */
    public synchronized void kill() {
        process.ifPresent(ServerProcess::kill);
        process = Optional.empty();
    }

    /** Whether the broker's process is alive (it may not answer yet or any more). */
    public synchronized boolean isRunning() {
        return process.map(ServerProcess::isAlive).orElse(false);
    }

    /** The broker's output, of every incarnation. */
    public Path log() {
        return log;
    }

    @Override
    public String toString() {
        return "RestartableKafka[" + bootstrapServers() + ", " + directory + "]";
    }

    /** Formats the storage under a new cluster id; returns it. */
    private String format() {
        String clusterId = Uuid.randomUuid().toString();
        ServerProcess.run("kafka-format", javaCommand("kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
            config.toString()), log, Duration.ofSeconds(60));
        return clusterId;
    }

    private boolean answers() {
        if (!listens()) {
            return false;
        }
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        try (Admin admin = Admin.create(props)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()
                && admin.listTopics().names().get(3, TimeUnit.SECONDS) != null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private boolean listens() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", brokerPort), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void writeConfig(int controllerPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", "1");
        settings.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        settings.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        settings.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("inter.broker.listener.name", "PLAINTEXT");
        settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        settings.put("log.dirs", directory.resolve(LOG_DIRECTORY).toString());
        settings.put("num.partitions", "1");
        settings.putAll(ONE_NODE_SETTINGS);
        settings.putAll(FAST_RESTART_SETTINGS);
        StringBuilder text = new StringBuilder();
        settings.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        try {
            Files.createDirectories(directory);
            Files.writeString(config, text, StandardCharsets.UTF_8);
            Files.writeString(directory.resolve("logback.xml"), LOGBACK, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + config, e);
        }
    }

    private List<String> javaCommand(String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Dlogback.configurationFile=" + directory.resolve("logback.xml"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }
}
