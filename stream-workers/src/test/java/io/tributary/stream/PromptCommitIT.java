package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.stream.simulation.RowsTopicReader;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recent barrier makes the stream workers commit at once, an old one (a backlog being worked through) or one
 * among snapshot rows does not: with a commit interval of ten minutes, what a {@code read_committed} reader of
 * {@code rows} sees shows which barriers asked for a commit.
 */
@RealServices
class PromptCommitIT {

    private static final int PARTITIONS = 2;
    private static final Duration LONG_INTERVAL = Duration.ofMinutes(10);
    /** Longer than the interval (Kafka Streams requires it), within the broker's 15-minute maximum. */
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(12);
    /** Far older than the 2 s within which a barrier asks for a commit. */
    private static final Duration OLD_BARRIER_AGE = Duration.ofMinutes(1);

    @TempDir
    Path temp;

    @Test
    void aRecentBarrierIsCommittedAtOnceAndAnOldOneWaitsForTheInterval(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        Map<String, Object> settings = Map.of("bootstrap.servers", services.kafkaBootstrapServers(),
            StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, LONG_INTERVAL.toMillis(),
            StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
            (int) TRANSACTION_TIMEOUT.toMillis());
        try (StreamWorker worker = StreamWorker.start(new StreamWorkerConfig(settings, names, temp, 1));
             KafkaProducer<byte[], byte[]> producer = producer(services);
             KafkaConsumer<byte[], byte[]> reader = RowsTopicReader.committedConsumer(
                 services.kafkaProperties(), names, PARTITIONS)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> worker.state() == KafkaStreams.State.RUNNING);

            long old = System.currentTimeMillis() - OLD_BARRIER_AGE.toMillis();
            send(producer, names, Barrier.of(1, Lsn.of(100)), old);
            Set<Long> visible = new HashSet<>();
            long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            while (System.nanoTime() < until) {
                visible.addAll(barrierEpochs(reader));
            }
            assertThat(visible).as("an old barrier waits for the commit interval").isEmpty();

            send(producer, names, Barrier.of(2, Lsn.of(200)), System.currentTimeMillis());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                visible.addAll(barrierEpochs(reader));
                assertThat(visible).as("a recent barrier is committed with what came before it")
                    .containsExactlyInAnyOrder(1L, 2L);
            });
        }
    }

    @Test
    void aRecentBarrierAmongSnapshotRowsWaitsForTheIntervalAndOneAfterThemDoesNot(TestServices services)
        throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        Map<String, Object> settings = Map.of("bootstrap.servers", services.kafkaBootstrapServers(),
            StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, LONG_INTERVAL.toMillis(),
            StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
            (int) TRANSACTION_TIMEOUT.toMillis());
        try (StreamWorker worker = StreamWorker.start(new StreamWorkerConfig(settings, names, temp, 1));
             KafkaProducer<byte[], byte[]> producer = producer(services);
             KafkaConsumer<byte[], byte[]> reader = RowsTopicReader.committedConsumer(
                 services.kafkaProperties(), names, PARTITIONS)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> worker.state() == KafkaStreams.State.RUNNING);

            sendSnapshotRowsToEveryPartition(producer, names);
            send(producer, names, Barrier.of(1, Lsn.of(100)), System.currentTimeMillis());
            Set<Long> visible = new HashSet<>();
            long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            while (System.nanoTime() < until) {
                visible.addAll(barrierEpochs(reader));
            }
            assertThat(visible).as("a recent barrier among snapshot rows waits for the commit interval").isEmpty();

            send(producer, names, Barrier.of(2, Lsn.of(200)), System.currentTimeMillis());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                visible.addAll(barrierEpochs(reader));
                assertThat(visible).as("a recent barrier after the snapshot rows is committed at once")
                    .containsExactlyInAnyOrder(1L, 2L);
            });
        }
    }

    /** One snapshot row in each partition of {@code snapshot-rows}, each sent before this returns. */
    private static void sendSnapshotRowsToEveryPartition(KafkaProducer<byte[], byte[]> producer, TopicNames names)
        throws Exception {
        Set<Integer> covered = new HashSet<>();
        PgSnapshot snapshot = PgSnapshot.of(100, 100, List.of());
        for (int id = 1; covered.size() < PARTITIONS; id++) {
            SnapshotRow row = new SnapshotRow(TableId.of("public", "items"), KeyValues.of("[" + id + "]"),
                RowJson.of("{\"id\":" + id + "}"), "w#0", "w", 1, snapshot);
            ProducerRecord<byte[], byte[]> record = TopicCodec.SNAPSHOT_ROWS.recordByKey(names.snapshotRows(),
                PARTITIONS, row);
            if (covered.add(record.partition())) {
                producer.send(record).get();
            }
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, TopicNames names, Barrier barrier,
                             long timestamp) throws Exception {
        for (ProducerRecord<byte[], byte[]> r : TopicCodec.CHANGES.recordsToEveryPartition(names.changes(),
                PARTITIONS, (ChangesMessage) barrier)) {
            producer.send(new ProducerRecord<>(r.topic(), r.partition(), timestamp, r.key(), r.value())).get();
        }
    }

    /** The epochs of the barriers polled from {@code rows} (each barrier is read from every partition). */
    private static List<Long> barrierEpochs(KafkaConsumer<byte[], byte[]> reader) {
        List<Long> epochs = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200))) {
            RowsMessage message = TopicCodec.ROWS.decode(record);
            if (message instanceof Barrier barrier) {
                epochs.add(barrier.epoch());
            }
        }
        return epochs;
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServices services) {
        return new KafkaProducer<>(services.kafkaProperties(), new ByteArraySerializer(), new ByteArraySerializer());
    }
}
