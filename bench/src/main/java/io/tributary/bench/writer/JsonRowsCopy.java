package io.tributary.bench.writer;

import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.RowsMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A copy of a {@code rows} topic with every value in the JSON envelope (version {@link TopicCodec#FORMAT_VERSION}),
 * which every build reads: what a baseline build of W replays, so that builds reading different envelope versions
 * are compared on the same records (same keys, partitions and order; committed records only). Made before the
 * baseline's window opens, untimed.
 */
final class JsonRowsCopy {

    private JsonRowsCopy() {
    }

    /** Copies {@code from} into {@code to} (created with the same partition count) unless {@code to} exists. */
    static void make(Properties kafka, String from, String to) throws Exception {
        try (Admin admin = Admin.create(kafka)) {
            if (admin.listTopics().names().get().contains(to)) {
                return;
            }
            int partitions = admin.describeTopics(List.of(from)).allTopicNames().get().get(from).partitions().size();
            admin.createTopics(List.of(new NewTopic(to, partitions, (short) 1))).all().get();
        }
        Properties consumerProperties = new Properties();
        consumerProperties.putAll(kafka);
        consumerProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProperties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Properties producerProperties = new Properties();
        producerProperties.putAll(kafka);
        producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProperties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        producerProperties.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties,
            new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(),
                 new ByteArraySerializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(from).stream()
                .map(info -> new TopicPartition(from, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    RowsMessage message = TopicCodec.ROWS.decode(RecordPosition.of(record), record.key(),
                        record.value());
                    producer.send(new ProducerRecord<>(to, record.partition(), record.key(),
                        TopicCodec.ROWS.encodeValue(message, TopicCodec.FORMAT_VERSION)));
                }
            }
            producer.flush();
        }
    }
}
