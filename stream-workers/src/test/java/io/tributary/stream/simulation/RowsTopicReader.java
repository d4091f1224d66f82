package io.tributary.stream.simulation;

import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.TableReady;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads {@code rows} from the beginning with {@code read_committed}, as a storage writer would, and keeps what
 * compaction would keep: the last row per key (tombstones remove), and the table-ready marker per partition.
 */
public final class RowsTopicReader implements AutoCloseable {

    private final Map<RowKey, RowJson> rows = new ConcurrentHashMap<>();
    private final Map<Integer, TableReady> ready = new ConcurrentHashMap<>();
    private final AtomicLong fromSnapshot = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    private RowsTopicReader(Properties kafka, TopicNames names, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = committedConsumer(kafka, names, partitions);
        this.thread = new Thread(() -> run(consumer), "rows-reader");
    }

    /**
     * A {@code read_committed} consumer of every partition of {@code rows} of {@code names}, positioned at their
     * beginning, as a storage writer of a new group reads them. The caller closes it.
     */
    public static KafkaConsumer<byte[], byte[]> committedConsumer(Properties kafka, TopicNames names,
                                                                  int partitions) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        List<TopicPartition> assigned = IntStream.range(0, partitions)
            .mapToObj(p -> new TopicPartition(names.rows(), p)).toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        return consumer;
    }

    /** Starts reading {@code rows} of {@code names} ({@code partitions} partitions). */
    public static RowsTopicReader start(Properties kafka, TopicNames names, int partitions) {
        RowsTopicReader reader = new RowsTopicReader(kafka, names, partitions);
        reader.thread.start();
        return reader;
    }

    private void run(KafkaConsumer<byte[], byte[]> consumer) {
        try (consumer) {
            while (running.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    apply(record.partition(), TopicCodec.ROWS.decode(record));
                }
            }
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    private void apply(int partition, RowsMessage message) {
        if (message instanceof ResolvedRow row) {
            rows.put(row.rowKey(), row.row());
            if (row.source() instanceof SnapshotPosition) {
                fromSnapshot.incrementAndGet();
            }
        } else if (message instanceof ResolvedDelete delete) {
            rows.remove(delete.rowKey());
        } else if (message instanceof TableReady tableReady) {
            ready.put(partition, tableReady);
        }
    }

    /** The compacted content read so far. */
    public Map<RowKey, RowJson> rows() {
        checkHealthy();
        return new HashMap<>(rows);
    }

    /** The table-ready marker read per partition. */
    public Map<Integer, TableReady> ready() {
        checkHealthy();
        return new HashMap<>(ready);
    }

    /** How many rows that came from snapshot chunks were read. */
    public long rowsFromSnapshot() {
        return fromSnapshot.get();
    }

    private void checkHealthy() {
        if (failure.get() != null) {
            throw new IllegalStateException("Reading rows failed", failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }
}
