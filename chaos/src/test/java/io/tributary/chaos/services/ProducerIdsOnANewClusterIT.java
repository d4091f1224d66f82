package io.tributary.chaos.services;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.clients.ClusterIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Kafka does to an idempotent producer that lived through its cluster's replacement ({@link
 * RestartableKafka#replaceWithNewCluster}): the new cluster hands out producer ids from the start again, so a
 * producer made on it can hold the old producer's id and epoch. The broker then takes the old producer's next batch
 * for a duplicate of the new producer's batch with the same sequence numbers: it acknowledges it at the other
 * batch's offset and drops it. A process whose producers outlive a cluster change must replace them before they
 * send again; this pins the behaviour that requirement rests on, and that a {@link ClusterIdentity} on the old
 * producer has seen the new cluster by the time that acknowledgement arrives (what the snapshot workers and the
 * planner check after their acknowledgements).
 */
class ProducerIdsOnANewClusterIT {

    private static final String TOPIC = "reused";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    @TempDir
    Path directory;

    @Test
    void aRecordOfAProducerThatLivedThroughANewClusterIsAcknowledgedAndDroppedAsADuplicate() throws Exception {
        try (RestartableKafka kafka = RestartableKafka.create(directory)) {
            createTopic(kafka);
            ClusterIdentity identity = new ClusterIdentity();
            try (KafkaProducer<byte[], String> old = producer(kafka, identity)) {
                assertThat(send(old, "old-0").offset()).isZero();
                assertThat(identity.changed()).isFalse();
                kafka.replaceWithNewCluster();
                createTopic(kafka);
                try (KafkaProducer<byte[], String> fresh = producer(kafka, new ClusterIdentity())) {
                    for (int i = 0; i < 3; i++) {
                        send(fresh, "new-" + i);
                    }
                }

                RecordMetadata acknowledged = send(old, "old-1");

                assertThat(acknowledged.offset()).as("the offset of new-1, the batch with the same sequence")
                    .isEqualTo(1);
                assertThat(identity.changed()).as("the old producer's metadata named the new cluster by then")
                    .isTrue();
            }
            assertThat(readAll(kafka)).containsExactly("new-0", "new-1", "new-2");
        }
    }

    private static RecordMetadata send(KafkaProducer<byte[], String> producer, String value) throws Exception {
        return producer.send(new ProducerRecord<>(TOPIC, 0, new byte[] {'k'}, value)).get(60, TimeUnit.SECONDS);
    }

    private static void createTopic(RestartableKafka kafka) throws Exception {
        try (Admin admin = Admin.create(properties(kafka))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * An idempotent producer whose key serializer is {@code identity}; each one is the first of its cluster in this
     * test, so both get the same id.
     */
    private static KafkaProducer<byte[], String> producer(RestartableKafka kafka, ClusterIdentity identity) {
        Properties props = properties(kafka);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(props, identity, new StringSerializer());
    }

    private static List<String> readAll(RestartableKafka kafka) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(properties(kafka), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(PARTITION));
            consumer.seekToBeginning(List.of(PARTITION));
            long end = consumer.endOffsets(List.of(PARTITION)).get(PARTITION);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (consumer.position(PARTITION) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }

    private static Properties properties(RestartableKafka kafka) {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }
}
