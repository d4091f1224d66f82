package io.tributary.launcher.run;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.ingest.capture.IngestConfig;
import io.tributary.ingest.capture.IngestService;
import io.tributary.ingest.capture.SealedEpochs;
import io.tributary.ingest.capture.publication.LiveGroupTables;
import io.tributary.ingest.planner.PlannerConfig;
import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.PlannerTableRebuild;
import io.tributary.launcher.lifecycle.SyncRulesMatcher;
import io.tributary.launcher.lifecycle.TableLogRecovery;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.snapshot.SnapshotWorkers;
import io.tributary.stream.StreamWorker;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.topics.provision.TopicProvisioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a role, started on two threads (ingest, planner and snapshot workers on one; stream workers and
 * storage writers, whose start-up takes longest, on the other) and closed in reverse pipeline order (storage writers
 * first, ingest last), each handing back its work: consumers leave their groups, offsets and transactions are
 * committed, the slot is released for a standby.
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    /** How often storage checks its writers and moves groups through their lifecycle (first checkpoint to ACTIVE). */
    private static final Duration SUPERVISOR_INTERVAL = Duration.ofMillis(500);
    /** Snapshot-task partitions per priority class: the most snapshot workers that can read at once. */
    private static final int TASK_PARTITIONS_PER_PRIORITY = 8;

    /** The started parts in pipeline order (two threads start them: see {@link #startParts}). */
    private final Map<Role.Part, Stage> parts = Collections.synchronizedMap(new EnumMap<>(Role.Part.class));
    private final Map<Role.Part, Health> health = Collections.synchronizedMap(new EnumMap<>(Role.Part.class));
    /** How long provisioning and each part took to start, for the start-up log line. */
    private final List<String> startTimes = Collections.synchronizedList(new ArrayList<>());
    private volatile Optional<WriterSupervisor> writers = Optional.empty();
    /** The storage role's background compaction, when {@code compaction.interval_seconds} is set. */
    private volatile Optional<BackgroundCompaction> compaction = Optional.empty();
    /** This process's snapshot planner once created, for the storage role's recovery of a lost table log. */
    private final AtomicReference<SnapshotPlanner> snapshotPlanner = new AtomicReference<>();
    private final Duration supervisorInterval;

    /** Whether one part is healthy. */
    private interface Health {
        Optional<String> problem();
    }

    private Pipeline(Duration supervisorInterval) {
        this.supervisorInterval = supervisorInterval;
    }

    /** The topic names of a configuration. */
    public static TopicNames topics(TributaryConfig config) {
        return new TopicNames(config.kafka().topicPrefix());
    }

    /** The topic layout of a configuration. */
    public static TopicLayout layout(TributaryConfig config) {
        return TopicLayout.of(config.kafka().partitions(), TASK_PARTITIONS_PER_PRIORITY,
            (short) config.kafka().replicationFactor())
            .withRowsTombstoneRetention(config.kafka().rowsTombstoneRetention());
    }

    /**
     * Provisions the topics, then starts the parts of {@code role}.
     *
     * @param stateDirectory where stream workers keep their local state
     * @param wait how long provisioning waits for a Kafka cluster that does not answer yet
     */
    public static Pipeline start(TributaryConfig config, Environment environment, Role role, Path stateDirectory,
                                 MeterRegistry registry, StartupWait wait) throws Exception {
        return start(config, environment, role, stateDirectory, registry, wait, SUPERVISOR_INTERVAL);
    }

    /** {@link #start} with the storage role's supervisor passing every {@code supervisorInterval} (tests). */
    static Pipeline start(TributaryConfig config, Environment environment, Role role, Path stateDirectory,
                          MeterRegistry registry, StartupWait wait, Duration supervisorInterval) throws Exception {
        TopicNames topics = topics(config);
        TopicLayout layout = layout(config);
        Properties kafka = environment.kafkaClientProperties();
        long started = System.nanoTime();
        wait.until("Kafka at " + environment.kafkaBootstrapServers() + " (topics)", () -> {
            try (Admin admin = Admin.create(kafka)) {
                return TopicProvisioner.ensure(admin, topics, layout);
            }
        });
        Pipeline pipeline = new Pipeline(supervisorInterval);
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
        // Stream workers and storage writers take longest to be ready (consumer group joins, Kafka Streams'
        // transactional producers) and wait for data anyway: they start on a thread of their own while this one
        // starts ingest, the planner and the snapshot workers, the path to the first snapshot rows.
        ExecutorService downstream = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-start-downstream");
            thread.setDaemon(true);
            return thread;
        });
        Future<Void> consumers = downstream.submit(() -> {
            startConsumers(config, environment, role, topics, kafka, stateDirectory, registry);
            return null;
        });
        try {
            startCapture(config, environment, role, topics, layout, kafka);
        } catch (RuntimeException e) {
            awaitQuietly(consumers, e);
            throw e;
        } finally {
            downstream.shutdown();
        }
        await(consumers);
        LOG.info("Role {} running: {} (started: {})", role.cliName(), role.parts(), String.join(", ", startTimes));
    }

    /** Starts ingest, the planner and the snapshot workers, the parts of {@code role} among them. */
    private void startCapture(TributaryConfig config, Environment environment, Role role, TopicNames topics,
                              TopicLayout layout, Properties kafka) {
        JdbcEndpoint source = environment.source();
        JdbcEndpoint storage = environment.storage();
        Optional<IngestService> capture = Optional.empty();
        long started = System.nanoTime();
        if (role.parts().contains(Role.Part.INGEST)) {
            Map<String, String> kafkaStrings = new HashMap<>();
            kafka.forEach((key, value) -> kafkaStrings.put(key.toString(), value.toString()));
            IngestService ingest = IngestService.create(IngestConfig.of(source.toPgEndpoint(),
                config.replication().slotName(), config.replication().publicationName(), topics, layout,
                kafkaStrings, new LiveGroupTables(storage.toPgEndpoint()))
                .withSealed(SealedEpochs.in(storage.toPgEndpoint())));
            capture = Optional.of(ingest);
            ingest.start();
            add(Role.Part.INGEST, ingest);
            started = timed("ingest", started);
        }
        if (role.parts().contains(Role.Part.PLANNER)) {
            SnapshotPlanner planner = SnapshotPlanner.create(
                PlannerConfig.of(kafka, topics, layout).withChunkRows(config.replication().snapshotChunkRows())
                    .withPublication(config.replication().publicationName())
                    .withSlot(config.replication().slotName()),
                () -> Environment.connect(source), () -> Environment.connect(storage),
                new SyncRulesMatcher());
            AtomicReference<String> notStarted = new AtomicReference<>();
            snapshotPlanner.set(planner);
            add(Role.Part.PLANNER, planner, () -> Optional.ofNullable(notStarted.get())
                .or(() -> planner.failure().map(failure -> "the snapshot planner stopped: " + failure)));
            startWhenSlotIsReady(planner, capture, notStarted);
            started = timed("planner", started);
        }
        if (role.parts().contains(Role.Part.SNAPSHOT_WORKERS)) {
            SnapshotWorkers snapshots = SnapshotWorkers.start(SnapshotWorkerConfig.of(kafka, topics, layout,
                source.toPgEndpoint(), storage.toPgEndpoint(), config.replication().workersPerProcess(),
                config.replication().snapshotMaxConcurrentReads()));
            add(Role.Part.SNAPSHOT_WORKERS, snapshots);
            timed("snapshot workers", started);
        }
    }

    /** Starts the stream workers and the storage writers, the parts of {@code role} among them. */
    private void startConsumers(TributaryConfig config, Environment environment, Role role, TopicNames topics,
                                Properties kafka, Path stateDirectory, MeterRegistry registry) throws SQLException {
        int workers = config.replication().workersPerProcess();
        long started = System.nanoTime();
        if (role.parts().contains(Role.Part.STREAM_WORKERS)) {
            StreamWorker stream = StreamWorker.start(StreamWorkerConfig.of(kafka, topics,
                createDirectories(stateDirectory.resolve("stream-workers")), workers));
            add(Role.Part.STREAM_WORKERS, stream);
            started = timed("stream workers", started);
        }
        if (role.parts().contains(Role.Part.STORAGE_WRITERS)) {
            Optional<TableLogRecovery.TableRebuild> rebuild = role.parts().contains(Role.Part.PLANNER)
                ? Optional.of(new PlannerTableRebuild(snapshotPlanner::get)) : Optional.empty();
            WriterSupervisor supervisor = new WriterSupervisor(kafka, topics, environment.storage(),
                config.replication().storageBatchRows(), workers, registry, rebuild);
            add(Role.Part.STORAGE_WRITERS, supervisor);
            supervisor.start(supervisorInterval);
            writers = Optional.of(supervisor);
            if (config.compaction().background()) {
                compaction = Optional.of(BackgroundCompaction.start(environment.storage(), config.compaction()));
            }
            timed("storage writers", started);
        }
    }

    /** Waits for the consumers' start; rethrows its failure as the caller's. */
    private static void await(Future<Void> consumers) throws SQLException {
        try {
            consumers.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the stream workers and storage writers started", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("Starting the stream workers and storage writers failed: "
                + e.getCause(), e.getCause());
        }
    }

    /** Waits for the consumers' start after {@code failure} (so closing sees every part); theirs is suppressed. */
    private static void awaitQuietly(Future<Void> consumers, Exception failure) {
        try {
            await(consumers);
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
        }
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

    /** Adds a started stage, unhealthy once it failed for good. */
    private void add(Role.Part role, Stage stage) {
        add(role, stage, () -> stage.failure().map(failure -> stage.stageName() + " failed: " + failure.getMessage()));
    }

    private void add(Role.Part role, Stage part, Health check) {
        parts.put(role, part);
        health.put(role, check);
    }

    /** The first problem of a part that failed, if any: the process is not ready then. */
    public Optional<String> problem() {
        List<Health> checks;
        synchronized (health) {
            checks = List.copyOf(health.values());
        }
        return checks.stream().map(Health::problem).flatMap(Optional::stream).findFirst();
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
        compaction.ifPresent(BackgroundCompaction::close);
        List<Stage> started;
        synchronized (parts) {
            started = new ArrayList<>(parts.values());
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            Stage part = started.get(i);
            try {
                part.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("Interrupted while stopping {}", part.stageName());
            } catch (Exception e) {
                LOG.warn("Stopping {} failed: {}", part.stageName(), e.toString());
            }
        }
        parts.clear();
        health.clear();
    }
}
