package io.tributary.launcher.run;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.ingest.capture.IngestConfig;
import io.tributary.ingest.capture.IngestService;
import io.tributary.ingest.capture.IngestState;
import io.tributary.ingest.capture.publication.LiveGroupTables;
import io.tributary.ingest.planner.PlannerConfig;
import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.StartupWait;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.snapshot.SnapshotWorkers;
import io.tributary.stream.StreamWorker;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.provision.TopicProvisioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a role, started in pipeline order (ingest and planner, snapshot workers, stream workers,
 * storage writers) and closed in reverse, each handing back its work: consumers leave their groups, offsets
 * and transactions are committed, the slot is released for a standby.
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    /** How often storage checks its writers and moves groups through their lifecycle (first checkpoint to ACTIVE). */
    private static final Duration SUPERVISOR_INTERVAL = Duration.ofMillis(500);
    /** Snapshot-task partitions per priority class: the most snapshot workers that can read at once. */
    private static final int TASK_PARTITIONS_PER_PRIORITY = 8;

    private final List<AutoCloseable> parts = new ArrayList<>();
    private final List<Health> health = new ArrayList<>();
    /** How long provisioning and each part took to start, for the start-up log line. */
    private final List<String> startTimes = new ArrayList<>();
    private Optional<WriterSupervisor> writers = Optional.empty();

    /** Whether one part is healthy. */
    private interface Health {
        Optional<String> problem();
    }

    private Pipeline() {
    }

    /** The topic names of a configuration. */
    public static TopicNames topics(TributaryConfig config) {
        return new TopicNames(config.kafka().topicPrefix());
    }

    /** The topic layout of a configuration. */
    public static TopicLayout layout(TributaryConfig config) {
        return TopicLayout.of(config.kafka().partitions(), TASK_PARTITIONS_PER_PRIORITY,
            (short) config.kafka().replicationFactor());
    }

    /**
     * Provisions the topics, then starts the parts of {@code role}.
     *
     * @param stateDirectory where stream workers keep their local state
     * @param wait how long provisioning waits for a Kafka cluster that does not answer yet
     */
    public static Pipeline start(TributaryConfig config, Environment environment, Role role, Path stateDirectory,
                                 MeterRegistry registry, StartupWait wait) throws Exception {
        TopicNames topics = topics(config);
        TopicLayout layout = layout(config);
        Properties kafka = environment.kafkaClientProperties();
        long started = System.nanoTime();
        wait.until("Kafka at " + environment.kafkaBootstrapServers() + " (topics)", () -> {
            try (Admin admin = Admin.create(kafka)) {
                return TopicProvisioner.ensure(admin, topics, layout);
            }
        });
        Pipeline pipeline = new Pipeline();
        pipeline.startTimes.add("topics " + millisSince(started) + " ms");
        try {
            pipeline.startParts(config, environment, role, topics, layout, kafka, stateDirectory, registry);
            return pipeline;
        } catch (SQLException | RuntimeException e) {
            pipeline.close();
            throw e;
        }
    }

    private void startParts(TributaryConfig config, Environment environment, Role role, TopicNames topics,
                            TopicLayout layout, Properties kafka, Path stateDirectory, MeterRegistry registry)
        throws SQLException {
        int workers = config.replication().workersPerProcess();
        JdbcEndpoint source = environment.source();
        JdbcEndpoint storage = environment.storage();
        Optional<IngestService> capture = Optional.empty();
        long started = System.nanoTime();
        if (role.parts().contains(Role.Part.INGEST)) {
            Map<String, String> kafkaStrings = new HashMap<>();
            kafka.forEach((key, value) -> kafkaStrings.put(key.toString(), value.toString()));
            IngestService ingest = IngestService.create(IngestConfig.of(source.toPgEndpoint(),
                config.replication().slotName(), config.replication().publicationName(), topics, layout,
                kafkaStrings, new LiveGroupTables(storage.toPgEndpoint())));
            capture = Optional.of(ingest);
            ingest.start();
            add(ingest, () -> ingest.state() == IngestState.FAILED
                ? ingest.failure().map(failure -> "ingest failed: " + failure.getMessage()) : Optional.empty());
            started = timed("ingest", started);
        }
        if (role.parts().contains(Role.Part.PLANNER)) {
            SnapshotPlanner planner = SnapshotPlanner.create(
                PlannerConfig.of(kafka, topics, layout).withChunkRows(config.replication().snapshotChunkRows())
                    .withPublication(config.replication().publicationName())
                    .withSlot(config.replication().slotName()),
                () -> Environment.connect(source), () -> Environment.connect(storage),
                (rules, tables) -> SyncRules.parse(rules).tablesMatching(tables));
            AtomicReference<String> notStarted = new AtomicReference<>();
            add(planner, () -> Optional.ofNullable(notStarted.get()));
            startWhenSlotIsReady(planner, capture, notStarted);
            started = timed("planner", started);
        }
        if (role.parts().contains(Role.Part.SNAPSHOT_WORKERS)) {
            SnapshotWorkers snapshots = SnapshotWorkers.start(SnapshotWorkerConfig.of(kafka, topics, layout,
                source.toPgEndpoint(), storage.toPgEndpoint(), workers,
                config.replication().snapshotMaxConcurrentReads()));
            add(snapshots, () -> snapshots.failure().map(failure -> "snapshot workers failed: "
                + failure.getMessage()));
            started = timed("snapshot workers", started);
        }
        if (role.parts().contains(Role.Part.STREAM_WORKERS)) {
            StreamWorker stream = StreamWorker.start(StreamWorkerConfig.of(kafka, topics,
                createDirectories(stateDirectory.resolve("stream-workers")), workers));
            add(stream, () -> stream.failure().map(failure -> "stream workers failed: " + failure.getMessage()));
            started = timed("stream workers", started);
        }
        if (role.parts().contains(Role.Part.STORAGE_WRITERS)) {
            WriterSupervisor supervisor = new WriterSupervisor(kafka, topics, storage,
                config.replication().storageBatchRows(), workers, registry);
            supervisor.start(SUPERVISOR_INTERVAL);
            writers = Optional.of(supervisor);
            add(supervisor, Optional::empty);
            timed("storage writers", started);
        }
        LOG.info("Role {} running: {} (started: {})", role.cliName(), role.parts(), String.join(", ", startTimes));
    }

    /**
     * Starts the planner once this process's capture has its replication slot ready
     * ({@link IngestService#awaitSlotReady}): the slot exists and is consistent, and the publication publishes the
     * tables. A window marker travels to {@code changes} only through the slot: one committed before the slot's
     * consistent point is never captured, its window never becomes ready, and the group never gets a checkpoint
     * (slot creation waits for every running source transaction to end, so that can be long). One committed after
     * it is captured whenever the engine starts streaming: Debezium reads from the slot's confirmed position (or its
     * stored offset), not from the WAL position at its start. So the planner need not wait for capture to be ACTIVE
     * (the engine's start-up, seconds), and the planner checks the slot itself before each window too
     * ({@code PlannerConfig#slot}). A standby ingest plans nothing until it takes over. If capture fails instead,
     * the planner never starts and {@code notStarted} says why (the process is then unhealthy).
     */
    private static void startWhenSlotIsReady(SnapshotPlanner planner, Optional<IngestService> capture,
                                             AtomicReference<String> notStarted) {
        if (capture.isEmpty()) {
            planner.start();
            return;
        }
        Thread starter = new Thread(() -> {
            while (true) {
                try {
                    capture.get().awaitSlotReady(Duration.ofMinutes(1));
                    planner.start();
                    return;
                } catch (TimeoutException e) {
                    LOG.debug("The snapshot planner waits for the replication slot: {}", e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    LOG.error("The snapshot planner does not start: capture failed ({})", e.toString());
                    notStarted.set("the snapshot planner did not start: capture failed (" + e.getMessage() + ")");
                    return;
                }
            }
        }, "tributary-planner-start");
        starter.setDaemon(true);
        starter.start();
    }

    /** Notes how long the part started at {@code started} took to start; returns now. */
    private long timed(String part, long started) {
        startTimes.add(part + " " + millisSince(started) + " ms");
        return System.nanoTime();
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private void add(AutoCloseable part, Health check) {
        parts.add(part);
        health.add(check);
    }

    /** The first problem of a part that failed, if any: the process is not ready then. */
    public Optional<String> problem() {
        return health.stream().map(Health::problem).flatMap(Optional::stream).findFirst();
    }

    /** The storage role's supervisor, when this process runs storage writers. */
    Optional<WriterSupervisor> writers() {
        return writers;
    }

    private static Path createDirectories(Path directory) {
        try {
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the state directory " + directory, e);
        }
    }

    @Override
    public void close() {
        for (int i = parts.size() - 1; i >= 0; i--) {
            AutoCloseable part = parts.get(i);
            try {
                part.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("Interrupted while stopping {}", part.getClass().getSimpleName());
            } catch (Exception e) {
                LOG.warn("Stopping {} failed: {}", part.getClass().getSimpleName(), e.toString());
            }
        }
        parts.clear();
        health.clear();
    }
}
