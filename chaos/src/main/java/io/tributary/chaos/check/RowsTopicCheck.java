package io.tributary.chaos.check;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.TableTruncate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The compacted table log against the source: reading {@code rows} from the start to its current end (committed
 * records only), the last value of every key, tombstones and truncated rows removed, must equal the source tables
 * in canonical encoding, byte for byte (so a row's stream and snapshot encodings agree, invariant 5).
 */
public final class RowsTopicCheck {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(3);

    private RowsTopicCheck() {
    }

    /**
     * Per table ({@code schema.table}) of {@code tables}, canonical key JSON to row JSON: the topic's view.
     *
     * @param kafka Kafka client properties ({@code bootstrap.servers} and friends)
     */
    public static Map<String, Map<String, String>> read(Properties kafka, String topic, List<String> tables) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        Map<String, Map<String, String>> result = new TreeMap<>();
        tables.forEach(table -> result.put(table, new TreeMap<>()));
        Map<String, Integer> partitionOfKey = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Could not read " + topic + " to its end " + end + " within "
                        + READ_TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(TopicCodec.ROWS.decode(record), record.partition(), result, partitionOfKey);
                }
            }
        }
        return result;
    }

    private static void apply(RowsMessage message, int partition, Map<String, Map<String, String>> result,
                              Map<String, Integer> partitionOfKey) {
        if (message instanceof ResolvedRow row) {
            Map<String, String> rows = result.get(row.table().toString());
            if (rows != null) {
                rows.put(row.pk().json(), row.row().json());
                partitionOfKey.put(row.table() + row.pk().json(), partition);
            }
        } else if (message instanceof ResolvedDelete delete) {
            Map<String, String> rows = result.get(delete.table().toString());
            if (rows != null) {
                rows.remove(delete.pk().json());
            }
        } else if (message instanceof TableTruncate truncate) {
            Map<String, String> rows = result.get(truncate.table().toString());
            if (rows != null) {
                Integer truncated = partition;
                rows.keySet().removeIf(key -> truncated.equals(partitionOfKey.get(truncate.table() + key)));
            }
        }
    }

    /** Every key whose row differs between the source and the topic. */
    public static List<Mismatch> compare(Map<String, Map<String, String>> source,
                                         Map<String, Map<String, String>> topic) {
        List<Mismatch> mismatches = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> table : source.entrySet()) {
            Map<String, String> want = table.getValue();
            Map<String, String> got = topic.getOrDefault(table.getKey(), Map.of());
            TreeSet<String> keys = new TreeSet<>(want.keySet());
            keys.addAll(got.keySet());
            for (String key : keys) {
                String wantRow = want.get(key);
                String gotRow = got.get(key);
                if (wantRow == null || !wantRow.equals(gotRow)) {
                    mismatches.add(Mismatch.of("rows-topic", table.getKey() + key, wantRow, gotRow));
                }
            }
        }
        return mismatches;
    }
}
