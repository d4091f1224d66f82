package io.tributary.topics.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.RoundRobinPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

@RealServices
class CoPartitioningIT {

    private static final int PARTITIONS = 8;
    private static final TopicLayout LAYOUT = TopicLayout.of(PARTITIONS, 1, (short) 1);
    private static final Lsn LSN = Lsn.parse("0/1000");
    private static final PgSnapshot SNAPSHOT = PgSnapshot.parse("10:12:11");

    @Test
    void sameRowLandsInTheSamePartitionOfAllThreeTopics(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, LAYOUT);
        }
        List<RowKey> keys = sampleKeys();
        try (KafkaProducer<byte[], byte[]> ingest = producer(services, Map.of());
             KafkaProducer<byte[], byte[]> snapshotWorker = producer(services,
                 Map.of(ProducerConfig.PARTITIONER_CLASS_CONFIG, RoundRobinPartitioner.class.getName()));
             KafkaProducer<byte[], byte[]> streamWorker = producer(services,
                 Map.of(ProducerConfig.LINGER_MS_CONFIG, "20", ProducerConfig.BATCH_SIZE_CONFIG, "512"))) {
            long seq = 0;
            for (RowKey key : keys) {
                RowJson row = RowJson.of("{\"pk\":" + key.pk().json() + "}");
                ChangeEvent event = ChangeEvent.insert(key.table(), key.pk(), row, LSN, seq++, 11);
                ingest.send(TopicCodec.CHANGES.recordByKey(names.changes(), PARTITIONS, event));
                snapshotWorker.send(TopicCodec.SNAPSHOT_ROWS.recordByKey(names.snapshotRows(), PARTITIONS,
                    new SnapshotRow(key.table(), key.pk(), row, "w#0", "w", 1, SNAPSHOT)));
                streamWorker.send(TopicCodec.ROWS.recordByKey(names.rows(), PARTITIONS, ResolvedRow.of(event)));
            }
        }

        Map<ByteBuffer, Integer> changes = partitionsByKey(services, names.changes(), keys.size(), TopicCodec.CHANGES);
        Map<ByteBuffer, Integer> snapshotRows =
            partitionsByKey(services, names.snapshotRows(), keys.size(), TopicCodec.SNAPSHOT_ROWS);
        Map<ByteBuffer, Integer> rows = partitionsByKey(services, names.rows(), keys.size(), TopicCodec.ROWS);

        assertThat(changes).hasSize(keys.size());
        assertThat(snapshotRows).isEqualTo(changes);
        assertThat(rows).isEqualTo(changes);
        for (RowKey key : keys) {
            byte[] bytes = RecordKeys.encode(key);
            assertThat(changes.get(ByteBuffer.wrap(bytes))).as(key.toString())
                .isEqualTo(Partitioning.partitionFor(bytes, PARTITIONS));
        }
        assertThat(Set.copyOf(changes.values())).as("keys spread over every partition").hasSize(PARTITIONS);
    }

    @Test
    void kafkasDefaultPartitionerAgreesWithPartitioning(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, LAYOUT);
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(services, Map.of())) {
            for (RowKey key : sampleKeys()) {
                byte[] bytes = RecordKeys.encode(key);
                RecordMetadata sent = producer.send(new ProducerRecord<>(names.rows(), bytes, new byte[] {'{', '}'}))
                    .get();
                assertThat(sent.partition()).as(key.toString()).isEqualTo(Partitioning.partitionFor(bytes, PARTITIONS));
            }
        }
    }

    private static List<RowKey> sampleKeys() {
        List<RowKey> keys = new ArrayList<>();
        TableId[] tables = {TableId.of("public", "orders"), TableId.of("tenant_7", "Orders"),
            TableId.of("odd.schema", "line \"items\" \u00e9")};
        for (int i = 0; i < 40; i++) {
            TableId table = tables[i % tables.length];
            keys.add(RowKey.of(table, KeyValues.of("[" + i + "]")));
            keys.add(RowKey.of(table, KeyValues.of("[\"user-" + i + "\",\"2024-01-0" + (i % 9 + 1) + "\"]")));
            keys.add(RowKey.of(table, KeyValues.of("[\"" + new UUID(i, 31L * i) + "\"]")));
            keys.add(RowKey.of(table, KeyValues.of("[" + i + ".50,\"\u00e9\u4e2d" + i + "\"]")));
        }
        return keys;
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServices services, Map<String, String> overrides) {
        Properties props = services.kafkaProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.putAll(overrides);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Map<ByteBuffer, Integer> partitionsByKey(TestServices services, String topic, int expected,
                                                            TopicCodec<?> codec) {
        Properties props = services.kafkaProperties();
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<ByteBuffer, Integer> partitions = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                assigned.add(new TopicPartition(topic, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    codec.decode(record);
                    partitions.put(ByteBuffer.wrap(record.key()), record.partition());
                }
                return partitions.size() >= expected;
            });
        }
        return partitions;
    }
}
