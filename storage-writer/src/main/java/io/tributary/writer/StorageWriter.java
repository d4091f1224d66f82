package io.tributary.writer;

import io.tributary.postgres.Retrier;
import io.tributary.postgres.StopSignal;
import io.tributary.storage.groups.LoadPhase;
import io.tributary.storage.groups.LoadState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.GroupMembership;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.writer.checkpoint.CheckpointLoop;
import io.tributary.writer.checkpoint.Checkpointer;
import io.tributary.writer.checkpoint.ReplayTargets;
import io.tributary.writer.consume.ProcessSeals;
import io.tributary.writer.consume.TableLogCheck;
import io.tributary.writer.consume.TableLogWatch;
import io.tributary.writer.consume.WriterLoop;
import io.tributary.writer.internals.StorageConnections;
import io.tributary.writer.internals.WriterCounters;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage writer of one sync rules group in this process: {@link WriterConfig#threads()} members of the
 * group's consumer group over {@code rows}, each evaluating the sync rules and applying bucket ops to storage in
 * one transaction per batch, plus one checkpointer advancing the group's checkpoint. See the package
 * documentation for the guarantees.
 *
 * <p>Partitions move between members incrementally (the cooperative sticky assignor, under the classic group
 * protocol): when a writer joins or leaves, only the partitions that change owner are revoked, and the others keep
 * their queued batches and fencing tokens. (Kafka's default, the range assignor, revoked every partition of every
 * member at each rebalance, so each scale-out paused the whole group and re-read its queued batches.) A deployment
 * switching over from the range assignor needs one rolling restart; Kafka's own default list allows it.
 *
 * <p>{@link #start(WriterConfig)} returns once the threads run; the writer then works until {@link #close()} or a
 * fatal failure ({@link #failure()}; every thread stops, the launcher decides what next). Thread-safe.
 */
public final class StorageWriter implements Stage {

    private static final Logger LOG = LoggerFactory.getLogger(StorageWriter.class);
    /** How long a load phase's start waits for its moment's lock on {@code bucket_data} before going without. */
    private static final Duration LOAD_LOCK_TIMEOUT = Duration.ofSeconds(1);
    /** How often a running writer checks that {@code rows} is still the log it reads ({@link TableLogWatch}). */
    static final Duration TABLE_LOG_CHECK_INTERVAL = Duration.ofSeconds(2);

    private final WriterConfig config;
    private final String consumerGroup;
    private final StopSignal stop;
    private final WriterCounters counters;
    private final List<WriterLoop> loops;
    private final CheckpointLoop checkpoints;
    private final TableLogWatch tableLog;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<Thread> threads = new ArrayList<>();

    private StorageWriter(WriterConfig config, String consumerGroup, StopSignal stop, WriterCounters counters,
                          List<WriterLoop> loops, CheckpointLoop checkpoints, TableLogWatch tableLog,
                          KafkaProducer<byte[], byte[]> producer) {
        this.config = config;
        this.consumerGroup = consumerGroup;
        this.stop = stop;
        this.counters = counters;
        this.loops = loops;
        this.checkpoints = checkpoints;
        this.tableLog = tableLog;
        this.producer = producer;
    }

    /**
     * Starts writing group {@code config.groupId()}: parses its rules, brings the storage schema up to date, checks
     * the group is live, and starts the consumer, committer and checkpointer threads.
     *
     * @throws io.tributary.syncrules.SyncRulesException if the rules do not parse
     * @throws IllegalStateException                     if the group does not exist or is not live, or
     *                                                   {@code rows} does not exist and the group recorded no log
     * @throws TableLogLostException                     if the group recorded a log and {@code rows} does not
     *                                                   exist, or the group's stored offsets do not refer to the
     *                                                   {@code rows} log Kafka holds now, or lie outside it, or
     *                                                   unread records are older than its tombstone retention
     * @throws SQLException                              if storage cannot be reached
     */
    public static StorageWriter start(WriterConfig config) throws SQLException {
        SyncRules rules = SyncRules.parse(config.rules());
        SyncRulesGroup group;
        try (Connection connection = config.storage().connect()) {
            Migrations.migrate(connection);
            group = SyncRulesGroups.find(connection, config.groupId()).orElseThrow(() -> new IllegalStateException(
                "Sync rules group " + config.groupId() + " does not exist in storage"));
        }
        if (!group.state().isLive()) {
            throw new IllegalStateException("Sync rules group " + group.id() + " is " + group.state()
                + ": only PROCESSING and ACTIVE groups are written");
        }
        String consumerGroup = group.consumerGroup(config.topics().prefix());
        StopSignal stop = new StopSignal();
        WriterCounters counters = new WriterCounters();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties(config, consumerGroup),
            new ByteArraySerializer(), new ByteArraySerializer());
        List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>();
        try {
            for (int i = 0; i < config.threads(); i++) {
                consumers.add(new KafkaConsumer<>(consumerProperties(config, consumerGroup, i),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()));
            }
            int partitions = rowsPartitions(config, group.id(), consumers.get(0));
            verifyTableLog(config, group.id(), consumers.get(0), partitions);
            captureReplayTargets(config, group.id(), consumers.get(0), partitions);
            beginLoad(config, group.id());
            List<WriterLoop> loops = new ArrayList<>();
            ProcessSeals seals = new ProcessSeals(partitions);
            for (int i = 0; i < consumers.size(); i++) {
                loops.add(WriterLoop.create(consumerGroup + "-" + i, config, rules, seals, consumers.get(i),
                    producer, stop, counters));
            }
            WriterTuning tuning = config.tuning();
            CheckpointLoop checkpoints = new CheckpointLoop(new Checkpointer(group.id(), partitions, rules),
                StorageConnections.to(config.storage(), consumerGroup + "-checkpoint"),
                Retrier.of(tuning.retryPolicy(), stop), stop, counters, tuning.checkpointInterval());
            seals.onSealedEverywhere(checkpoints::nudge);
            TableLogWatch tableLog = new TableLogWatch(group.id(), config.topics().rows(), partitions,
                () -> Admin.create(config.kafka()), () -> checkConsumer(config),
                StorageConnections.to(config.storage(), consumerGroup + "-log-check"), stop, TABLE_LOG_CHECK_INTERVAL);
            StorageWriter writer = new StorageWriter(config, consumerGroup, stop, counters, loops, checkpoints,
                tableLog, producer);
            writer.startThreads();
            LOG.info("Storage writer of group {} started: consumer group {}, {} threads, {} partitions", group.id(),
                consumerGroup, config.threads(), partitions);
            return writer;
        } catch (RuntimeException e) {
            for (KafkaConsumer<byte[], byte[]> consumer : consumers) {
                consumer.close(Duration.ZERO);
            }
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    private void startThreads() {
        for (int i = 0; i < loops.size(); i++) {
            WriterLoop loop = loops.get(i);
            threads.add(thread(loop.committer(), consumerGroup + "-" + i + "-commit"));
            threads.add(thread(loop, consumerGroup + "-" + i + "-poll"));
        }
        threads.add(thread(checkpoints, consumerGroup + "-checkpoint"));
        threads.add(thread(tableLog, consumerGroup + "-log-check"));
        threads.forEach(Thread::start);
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** The Kafka consumer group of the writers of this group. */
    public String consumerGroup() {
        return consumerGroup;
    }

    /** The sync rules group written. */
    public long groupId() {
        return config.groupId();
    }

    /**
     * Calls {@code listener} after each checkpoint this writer publishes, on its checkpoint thread (so it must be
     * quick and must not throw): a lifecycle that waits for a group's first checkpoint can act on it at once.
     * Checkpoints published before the call are not reported; the writer keeps publishing (one per sealed epoch),
     * so a caller registering just after {@link #start} hears the next one.
     */
    public void onCheckpointPublished(Runnable listener) {
        checkpoints.onPublished(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Calls {@code listener} with the duration in nanoseconds of each batch transaction into storage (retries
     * included) committed after this call, on the committing thread: it must be quick and must not throw. Batches
     * committed before the call are in {@link #stats()} only.
     */
    public void onBatchCommitted(LongConsumer listener) {
        counters.onCommitted(listener);
    }

    /** The counters so far. */
    public WriterStats stats() {
        return counters.snapshot();
    }

    /** The first fatal failure, if the writer stopped because of one. */
    @Override
    public String stageName() {
        return "the storage writer";
    }

    @Override
    public Optional<Throwable> failure() {
        if (tableLog.failure().isPresent()) {
            return tableLog.failure();
        }
        for (WriterLoop loop : loops) {
            if (loop.failure().isPresent()) {
                return loop.failure();
            }
        }
        return checkpoints.failure();
    }

    /** Whether any of the writer's threads still runs. */
    public boolean isRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    /**
     * Stops gracefully: stops polling, commits what is evaluated and committable within the close timeout (hands
     * the rest back: the next owner resumes from the stored offsets), commits offsets to Kafka, leaves the group.
     * Idempotent.
     */
    @Override
    public void close() {
        stop.stop();
        loops.forEach(WriterLoop::wakeup);
        checkpoints.nudge();
        long deadline = System.nanoTime() + config.tuning().closeTimeout().plusSeconds(15).toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                if (thread.isAlive()) {
                    LOG.warn("{} did not stop in time; interrupting it", thread.getName());
                    thread.interrupt();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        producer.close(Duration.ofSeconds(5));
        LOG.info("Storage writer of group {} closed: {}", config.groupId(), stats());
    }

    /**
     * Records the cluster and topic id of {@code rows} for a group's first writer, and checks that the group's stored
     * offsets refer to that log and can be resumed from ({@link TableLogCheck}).
     */
    private static void verifyTableLog(WriterConfig config, long groupId, KafkaConsumer<byte[], byte[]> consumer,
                                       int partitions) throws SQLException {
        String topic = config.topics().rows();
        DescribedLog described = describing(config, topic,
            admin -> new DescribedLog(TableLog.describe(admin, topic), tombstoneRetention(admin, topic)));
        try (Connection connection = config.storage().connect()) {
            connection.setAutoCommit(false);
            TableLogCheck.verify(connection, groupId, described.log(), consumer, partitions,
                described.tombstoneRetention(), Instant.now());
        }
    }

    /** The {@code rows} log as Kafka describes it, and how long its tombstones stay. */
    private record DescribedLog(TableLog log, Duration tombstoneRetention) {
    }

    /** A question to Kafka's admin client about {@code rows}. */
    private interface AdminQuery<T> {
        T ask(Admin admin) throws InterruptedException;
    }

    /** The answer of {@code query} about {@code topic}, over an admin client of its own. */
    private static <T> T describing(WriterConfig config, String topic, AdminQuery<T> query) {
        try (Admin admin = Admin.create(config.kafka())) {
            return query.ask(admin);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while describing " + topic, e);
        } catch (KafkaException e) {
            throw new IllegalStateException("Cannot describe " + topic + " and its cluster", e);
        }
    }

    /**
     * Checks, without starting a writer, whether group {@code config.groupId()}'s writers can resume on the
     * {@code rows} log Kafka holds now (and records it as the group's log if none is recorded).
     *
     * @throws TableLogLostException if they cannot: the message names the topic, both ids or offsets and the recovery
     */
    public static void verifyTableLog(WriterConfig config) throws SQLException {
        try (KafkaConsumer<byte[], byte[]> consumer = checkConsumer(config)) {
            verifyTableLog(config, config.groupId(), consumer, rowsPartitions(config, config.groupId(), consumer));
        }
    }

    /** A consumer of no group that reads offsets only, as the checks of the {@code rows} log do. */
    private static KafkaConsumer<byte[], byte[]> checkConsumer(WriterConfig config) {
        Map<String, Object> properties = new HashMap<>(config.kafka());
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static Duration tombstoneRetention(Admin admin, String topic) throws InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config configs = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            return Duration.ofMillis(Long.parseLong(configs.get(TopicConfig.DELETE_RETENTION_MS_CONFIG).value()));
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot read the configuration of " + topic, e.getCause());
        }
    }

    /**
     * Before the group's first checkpoint: stores where {@code rows} ends now as its replay targets, unless a writer
     * of the group did before ({@link ReplayTargets}).
     */
    private static void captureReplayTargets(WriterConfig config, long groupId,
                                             KafkaConsumer<byte[], byte[]> consumer, int partitions)
        throws SQLException {
        try (Connection connection = config.storage().connect()) {
            connection.setAutoCommit(false);
            if (ReplayTargets.captureIfFirst(connection, groupId, consumer, config.topics().rows(), partitions)) {
                LOG.info("Group {}: its first checkpoint waits for barriers after the current end of {}", groupId,
                    config.topics().rows());
            }
        } catch (KafkaException e) {
            throw new IllegalStateException("Cannot read the end offsets of " + config.topics().rows(), e);
        }
    }

    /**
     * Before the group's first checkpoint: starts its load phase (ops copied without the key of its
     * {@code bucket_data} table, built before the first checkpoint) unless a writer of the group did before.
     */
    private static void beginLoad(WriterConfig config, long groupId) throws SQLException {
        try (Connection connection = config.storage().connect()) {
            connection.setAutoCommit(false);
            LoadState state = LoadPhase.begin(connection, groupId, LOAD_LOCK_TIMEOUT);
            if (state == LoadState.LOADING) {
                LOG.info("Group {}: ops load without the key of {} until the first checkpoint", groupId,
                    LoadPhase.bucketData(groupId));
            } else if (state == LoadState.NEW) {
                LOG.info("Group {}: {} stays keyed for its load (bucket_data was locked by another session for"
                    + " more than {} ms)", groupId, LoadPhase.bucketData(groupId), LOAD_LOCK_TIMEOUT.toMillis());
            }
        }
    }

    /**
     * The partitions of {@code rows}. When the topic does not exist, a group that recorded a log has lost it
     * ({@link TableLogCheck#verifyMissing}); a group that recorded none waits for the topics to be provisioned.
     *
     * @throws TableLogLostException if the group recorded a log and Kafka has no {@code rows} topic now
     * @throws IllegalStateException if the topic does not exist and the group recorded no log, or Kafka does not
     *                               answer
     */
    private static int rowsPartitions(WriterConfig config, long groupId, KafkaConsumer<byte[], byte[]> consumer)
        throws SQLException {
        String topic = config.topics().rows();
        List<PartitionInfo> partitions;
        try {
            partitions = consumer.partitionsFor(topic);
        } catch (KafkaException e) {
            throw new IllegalStateException("Cannot read the partitions of " + topic, e);
        }
        if (partitions == null || partitions.isEmpty()) {
            verifyMissing(config, groupId, topic);
            throw new IllegalStateException("Topic " + topic + " does not exist: provision the topics first");
        }
        return partitions.size();
    }

    private static void verifyMissing(WriterConfig config, long groupId, String topic) throws SQLException {
        // the cluster's id while the topic is still missing; none if it was created since the consumer looked (the
        // next start checks it)
        Optional<String> missingOn = describing(config, topic, admin -> {
            String clusterId = TableLog.clusterId(admin);
            return TableLog.find(admin, clusterId, topic).isPresent() ? Optional.empty() : Optional.of(clusterId);
        });
        if (missingOn.isEmpty()) {
            return;
        }
        try (Connection connection = config.storage().connect()) {
            connection.setAutoCommit(false);
            TableLogCheck.verifyMissing(connection, groupId, missingOn.get(), topic);
        }
    }

    private static Map<String, Object> consumerProperties(WriterConfig config, String consumerGroup, int index) {
        Map<String, Object> properties = new HashMap<>(config.kafka());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, consumerGroup);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // Every partition is sought to its stored offset: a position outside the log is a lost log, never a reset.
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.min(config.batchRecords(), 10_000));
        properties.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, GroupMembership.HEARTBEAT_INTERVAL_MS);
        if (!GroupProtocol.CONSUMER.name().equalsIgnoreCase(
            String.valueOf(properties.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)))) {
            properties.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                CooperativeStickyAssignor.class.getName());
        }
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, consumerGroup + "-" + index + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFL));
        return properties;
    }

    private static Map<String, Object> producerProperties(WriterConfig config, String consumerGroup) {
        Map<String, Object> properties = new HashMap<>(config.kafka());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, consumerGroup + "-dead-letters-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFL));
        return properties;
    }
}
