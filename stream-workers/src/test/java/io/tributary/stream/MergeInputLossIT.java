package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.stream.internals.StoreKeys;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka removes records of {@code changes} the stream workers had not merged (retention while they were stopped; a
 * log deleted and created again, which also drops the group's offsets of it): their next start refuses, naming each
 * partition, what was found and {@code tributary recover}, instead of reading on from the log's start and losing
 * those changes for good. A group that had read everything starts as usual after retention removed it all (the logs
 * are written in Kafka transactions, as ingest writes them, so their last offsets are commit markers), and so does a
 * group whose merge state never read {@code changes}.
 */
@RealServices
class MergeInputLossIT {

    private static final int PARTITIONS = 2;
    private static final TableId TABLE = TableId.of("public", "items");
    private static final Duration MERGED = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    @Test
    void changesRemovedBeforeTheMergeReadThemStopTheNextStartNamingThemAndTheRecovery(TestServices services)
        throws Exception {
        TopicNames names = provision(services);
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties())) {
            sendInserts(producer, names, 1, 100);
            mergeEverything(services, names, admin, "first");
            TopicRetention.removeEveryRecord(admin, names.changes());
            try (StreamWorker worker = start(services, names, "after-retention-of-read-changes")) {
                await().atMost(MERGED).until(() -> worker.state() == KafkaStreams.State.RUNNING);
            }

            sendInserts(producer, names, 101, 200);
            TopicRetention.removeEveryRecord(admin, names.changes());

            assertThatThrownBy(() -> start(services, names, "after-retention-of-unread-changes"))
                .isInstanceOf(MergeInputLostException.class)
                .hasMessageContaining(names.changes() + "-0: committed offset")
                .hasMessageContaining(names.changes() + "-1: committed offset")
                .hasMessageContaining("removed unread")
                .hasMessageContaining("tributary recover --config FILE")
                .satisfies(e -> assertThat(((MergeInputLostException) e).losses())
                    .extracting(MergeInputCheck.Loss::partition)
                    .containsExactly(new TopicPartition(names.changes(), 0), new TopicPartition(names.changes(), 1)));
        }
    }

    /** The same for {@code snapshot-rows}: rows of chunks the merge had not read are gone from the table log. */
    @Test
    void snapshotRowsRemovedBeforeTheMergeReadThemStopTheNextStart(TestServices services) throws Exception {
        TopicNames names = provision(services);
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties())) {
            sendSnapshotRows(producer, names, 1, 100);
            try (StreamWorker ignored = start(services, names, "first")) {
                awaitMerged(admin, names, names.snapshotRows());
            }

            sendSnapshotRows(producer, names, 101, 200);
            TopicRetention.removeEveryRecord(admin, names.snapshotRows());

            assertThatThrownBy(() -> start(services, names, "after-retention-of-unread-rows"))
                .isInstanceOf(MergeInputLostException.class)
                .hasMessageContaining(names.snapshotRows() + "-0: committed offset")
                .hasMessageContaining(names.snapshotRows() + "-1: committed offset")
                .hasMessageContaining("removed unread");
        }
    }

    @Test
    void aChangesLogCreatedAgainStopsTheNextStart(TestServices services) throws Exception {
        TopicNames names = provision(services);
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties())) {
            sendInserts(producer, names, 1, 100);
            mergeEverything(services, names, admin, "first");
            createChangesAgain(admin, names);

            assertThatThrownBy(() -> start(services, names, "on-the-new-log"))
                .isInstanceOf(MergeInputLostException.class)
                .hasMessageContaining(names.changes() + "-0: no committed offset, though the merge has state for it")
                .hasMessageContaining("the log was deleted and created again");
        }
    }

    /**
     * {@code changes} deleted and created again while a stream worker runs: its positions lie past the new log's end
     * (or its group's offsets are gone with the old log while the merge holds state for its partitions), and instead
     * of reading the new log from its start as if it continued the old one, the worker stops naming the partitions and
     * the recovery; its next start refuses too.
     */
    @Test
    void aChangesLogCreatedAgainUnderARunningWorkerStopsIt(TestServices services) throws Exception {
        TopicNames names = provision(services);
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties())) {
            sendInserts(producer, names, 1, 100);
            try (StreamWorker worker = start(services, names, "running")) {
                awaitMerged(admin, names);
                createChangesAgain(admin, names);

                await().atMost(MERGED).until(() -> worker.failure().isPresent());
                assertThat(worker.failure().get()).isInstanceOf(MergeInputLostException.class)
                    .hasMessageContaining(names.changes() + "-")
                    .hasMessageContaining("tributary recover --config FILE");
                await().atMost(MERGED).untilAsserted(() -> assertThat(worker.state())
                    .isIn(KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.ERROR));
            }

            assertThatThrownBy(() -> start(services, names, "after-the-stop"))
                .isInstanceOf(MergeInputLostException.class);
        }
    }

    /**
     * Retention removes records below a running stream thread's position (the thread lags by the whole retention):
     * Kafka finds the position outside the log, and the move to the log's start that Kafka Streams then makes is
     * refused, naming how many records were removed unread. A thread on another cluster than the worker started on
     * (Kafka replaced under it, which the storage writers' checks and the planner's rebuild answer) reads on. A move
     * the check defers (the cluster did not answer it) leaves the position invalid, so the next poll asks again.
     */
    @Test
    void retentionOvertakingARunningThreadStopsItsMoveToTheLogsStart(TestServices services) throws Exception {
        TopicNames names = provision(services);
        List<TopicPartition> partitions = changesPartitions(names);
        Map<String, Object> settings = Map.of("bootstrap.servers", services.kafkaBootstrapServers(),
            StreamsConfig.APPLICATION_ID_CONFIG, StreamWorkerConfig.applicationId(names));
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties());
             Consumer<byte[], byte[]> started = lagging(settings, names, InputResetCheck.clusterId(admin));
             Consumer<byte[], byte[]> replaced = lagging(settings, names, "another-cluster");
             Consumer<byte[], byte[]> unchecked = CheckedResets.wrap(new KafkaConsumer<>(consumerSettings(settings),
                 new ByteArrayDeserializer(), new ByteArrayDeserializer()), (moving, outside) -> false)) {
            sendInserts(producer, names, 1, 100);
            for (Consumer<byte[], byte[]> consumer : List.of(started, replaced)) {
                consumer.assign(partitions);
                partitions.forEach(partition -> consumer.seek(partition, 1));
            }
            unchecked.assign(partitions.subList(0, 1));
            unchecked.seek(partitions.get(0), 1);
            TopicRetention.removeEveryRecord(admin, names.changes());

            assertThatThrownBy(() -> started.seekToBeginning(outOfRange(started)))
                .isInstanceOf(MergeInputLostException.class)
                .hasMessageContaining(": position 1, the log now holds offsets")
                .hasMessageContaining("removed unread")
                .hasMessageContaining("tributary recover --config FILE");
            Set<TopicPartition> moved = outOfRange(replaced);
            replaced.seekToBeginning(moved);
            for (TopicPartition partition : moved) {
                assertThat(replaced.position(partition)).isEqualTo(admin.listOffsets(Map.of(partition,
                    OffsetSpec.earliest())).all().get().get(partition).offset());
            }
            unchecked.seekToBeginning(outOfRange(unchecked));
            assertThat(outOfRange(unchecked)).as("a move the check defers, found again by the next poll")
                .containsExactly(partitions.get(0));
        }
    }

    /** The partitions {@code consumer}'s next poll finds outside the log, as Kafka Streams' reset gets them. */
    private static Set<TopicPartition> outOfRange(Consumer<byte[], byte[]> consumer) {
        try {
            consumer.poll(Duration.ofSeconds(10));
        } catch (OffsetOutOfRangeException e) {
            return e.partitions();
        }
        throw new AssertionError("no position outside the log");
    }

    /** A stream thread's consumer of {@code changes}, checking its resets for a worker started on {@code cluster}. */
    private static Consumer<byte[], byte[]> lagging(Map<String, Object> settings, TopicNames names, String cluster) {
        StreamsConfig config = new StreamsConfig(settings);
        return new CheckedResetClients(config.getKafkaClientSupplier(), new InputResetCheck(config, names, cluster))
            .getConsumer(consumerSettings(settings));
    }

    /** A main consumer's settings as Kafka Streams sets them: no reset of its own, committed records only. */
    private static Map<String, Object> consumerSettings(Map<String, Object> settings) {
        return Map.of("bootstrap.servers", settings.get("bootstrap.servers"),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    }

    /**
     * Partition 0's merge state holds a partition state from a transaction the coordinator aborted; partition 1's a
     * committed record of a chunk state only (as snapshot rows merged before the partition's first change leave).
     * Neither read {@code changes}, so nothing of it was lost.
     */
    @Test
    void mergeStateThatNeverReadChangesIsNoLoss(TestServices services) throws Exception {
        TopicNames names = provision(services);
        String changelog = StreamWorkerConfig.applicationId(names) + "-merge-state-changelog";
        try (KafkaProducer<byte[], byte[]> producer = producer(services);
             Admin admin = Admin.create(services.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(changelog, PARTITIONS, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(changelog, 0, StoreKeys.partition().get(), new byte[] {1}));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(changelog, 1, StoreKeys.chunk(TABLE, "w1-0").get(), null));
            producer.commitTransaction();

            try (StreamWorker worker = start(services, names, "first")) {
                await().atMost(MERGED).until(() -> worker.state() == KafkaStreams.State.RUNNING);
            }
        }
    }

    /** Runs a stream worker until its group committed every partition of {@code changes} to its end, then stops it. */
    private void mergeEverything(TestServices services, TopicNames names, Admin admin, String name) {
        try (StreamWorker ignored = start(services, names, name)) {
            awaitMerged(admin, names);
        }
    }

    /** Deletes {@code changes} and creates it again, empty. */
    private static void createChangesAgain(Admin admin, TopicNames names) throws Exception {
        admin.deleteTopics(List.of(names.changes())).all().get();
        await().atMost(MERGED).ignoreExceptions().until(() -> {
            TopicProvisioner.ensure(admin, names, layout());
            return true;
        });
    }

    /** Waits until the stream workers' group committed every partition of {@code changes} to its end. */
    private static void awaitMerged(Admin admin, TopicNames names) {
        awaitMerged(admin, names, names.changes());
    }

    /** Waits until the stream workers' group committed every partition of {@code input} to its end. */
    private static void awaitMerged(Admin admin, TopicNames names, String input) {
        String group = StreamWorkerConfig.applicationId(names);
        await().atMost(MERGED).until(() -> {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = IntStream.range(0, PARTITIONS)
                .mapToObj(p -> new TopicPartition(input, p))
                .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().entrySet().stream().allMatch(end ->
                committed.containsKey(end.getKey())
                    && committed.get(end.getKey()).offset() == end.getValue().offset());
        });
    }

    private static List<TopicPartition> changesPartitions(TopicNames names) {
        return IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(names.changes(), p)).toList();
    }

    private StreamWorker start(TestServices services, TopicNames names, String name) {
        return StreamWorker.start(new StreamWorkerConfig(Map.of("bootstrap.servers",
            services.kafkaBootstrapServers()), names, temp.resolve(name), 1));
    }

    private static TopicNames provision(TestServices services) {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, layout());
        }
        return names;
    }

    private static TopicLayout layout() {
        return TopicLayout.of(PARTITIONS, 1, (short) 1);
    }

    /** Inserts {@code from..to} in one Kafka transaction, as ingest writes a source transaction. */
    private static void sendInserts(KafkaProducer<byte[], byte[]> producer, TopicNames names, int from, int to) {
        producer.beginTransaction();
        for (int id = from; id <= to; id++) {
            producer.send(TopicCodec.CHANGES.recordByKey(names.changes(), PARTITIONS, ChangeEvent.insert(TABLE,
                KeyValues.of("[" + id + "]"), RowJson.of("{\"id\":" + id + "}"), Lsn.of(1_000L + id), 0, id)));
        }
        producer.commitTransaction();
    }

    /** Rows {@code from..to} of one chunk of {@link #TABLE} in one Kafka transaction. */
    private static void sendSnapshotRows(KafkaProducer<byte[], byte[]> producer, TopicNames names, int from, int to) {
        producer.beginTransaction();
        for (int id = from; id <= to; id++) {
            producer.send(TopicCodec.SNAPSHOT_ROWS.recordByKey(names.snapshotRows(), PARTITIONS, new SnapshotRow(TABLE,
                KeyValues.of("[" + id + "]"), RowJson.of("{\"id\":" + id + "}"), "w#0", "w", 1,
                PgSnapshot.of(100, 100, List.of()))));
        }
        producer.commitTransaction();
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServices services) {
        Properties properties = new Properties();
        properties.putAll(services.kafkaProperties());
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, services.topicPrefix() + "test-ingest");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
            new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }
}
