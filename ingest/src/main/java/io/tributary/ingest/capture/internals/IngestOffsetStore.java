package io.tributary.ingest.capture.internals;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.apache.kafka.connect.util.Callback;

/**
 * Debezium's offset store for ingest: reads the source offsets from the {@code ingest-offsets} topic when the
 * engine starts, as a {@code read_committed} consumer sees them (only offsets of committed ingest transactions, and
 * those written without a transaction by earlier releases), and writes nothing: ingest writes each offset in the
 * Kafka transaction of the changes it covers ({@link SourceOffsets}), so the stored offsets never run ahead of
 * {@code changes} nor behind it. The Debezium engine still flushes its offsets here once they are committed; they
 * are kept in memory, where the connector reads them to confirm the position to the replication slot.
 *
 * <p>Debezium instantiates this class by name ({@code offset.storage}); not for direct use. The topic exists
 * (ingest provisions it). Thread-safe.
 */
public final class IngestOffsetStore implements OffsetBackingStore {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final Map<ByteBuffer, ByteBuffer> data = new HashMap<>();
    private Properties consumerProps;
    private String topic;

    public IngestOffsetStore() {
    }

    @Override
    public void configure(WorkerConfig config) {
        Properties props = new Properties();
        for (Map.Entry<String, Object> entry : config.originals().entrySet()) {
            if (ConsumerConfig.configNames().contains(entry.getKey())) {
                props.put(entry.getKey(), entry.getValue());
            }
        }
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "tributary-ingest-offsets");
        this.consumerProps = props;
        this.topic = String.valueOf(config.originals().get("offset.storage.topic"));
    }

    /** Reads every committed offset record of the topic (its single partition) up to its last stable offset. */
    @Override
    public void start() {
        TopicPartition partition = new TopicPartition(topic, 0);
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("Timed out reading the source offsets in " + partition + " at "
                        + consumer.position(partition) + " of " + end);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    take(record);
                }
            }
        }
    }

    private synchronized void take(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            return;
        }
        ByteBuffer key = ByteBuffer.wrap(record.key());
        if (record.value() == null) {
            data.remove(key);
        } else {
            data.put(key, ByteBuffer.wrap(record.value()));
        }
    }

    @Override
    public void stop() {
    }

    @Override
    public synchronized Future<Map<ByteBuffer, ByteBuffer>> get(Collection<ByteBuffer> keys) {
        Map<ByteBuffer, ByteBuffer> found = new HashMap<>();
        for (ByteBuffer key : keys) {
            found.put(key, data.get(key));
        }
        return CompletableFuture.completedFuture(found);
    }

    /**
     * Writes nothing to Kafka, where the offsets were written with the changes they cover, in the same Kafka
     * transaction; keeps them for {@link #get} (the connector reads them back to confirm the position to the slot).
     */
    @Override
    public Future<Void> set(Map<ByteBuffer, ByteBuffer> values, Callback<Void> callback) {
        synchronized (this) {
            values.forEach((key, value) -> {
                if (value == null) {
                    data.remove(key);
                } else {
                    data.put(key, value);
                }
            });
        }
        if (callback != null) {
            callback.onCompletion(null, null);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }
}
