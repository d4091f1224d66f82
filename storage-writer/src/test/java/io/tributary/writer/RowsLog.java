package io.tributary.writer;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.ExpectedBuckets;
import io.tributary.syncrules.ReferenceEvaluator;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Test stand-in for the stream workers: writes {@code rows} (resolved rows, tombstones, barriers, table-ready
 * markers) with the topics codec, and keeps the model of the source tables those records describe. Rows are
 * {@code public.<table>} with a one-column key {@code id}; LSNs grow by one per row and jump to
 * {@code epoch * 1_000_000} at barriers. Not thread-safe.
 */
final class RowsLog implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final Map<String, Map<String, String>> model = new LinkedHashMap<>();
    private final List<Future<RecordMetadata>> sends = new ArrayList<>();
    private long lsn = 1;
    private long epoch = -1;

    RowsLog(Properties kafka, String topic, int partitions) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.partitions = partitions;
    }

    /** Row {@code id} of {@code table} now is {@code json} (an object with an {@code "id"}). */
    void upsert(String table, String id, String json) {
        send(new ResolvedRow(TableId.of("public", table), pk(id), RowJson.of(json),
            StreamPosition.of(Lsn.of(lsn++), 0)));
        model.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(id, json);
    }

    /** Row {@code id} of {@code table} is deleted (a tombstone). */
    void delete(String table, String id) {
        send(ResolvedDelete.of(RowKey.of(TableId.of("public", table), pk(id))));
        model.computeIfAbsent(table, t -> new LinkedHashMap<>()).remove(id);
    }

    /** Ends the current epoch in every partition; returns the barrier. */
    Barrier barrier() {
        epoch++;
        lsn = Math.max(lsn, (epoch + 1) * 1_000_000);
        Barrier barrier = Barrier.of(epoch, Lsn.of(lsn++));
        for (ProducerRecord<byte[], byte[]> record : TopicCodec.ROWS.recordsToEveryPartition(topic, partitions,
            barrier)) {
            sends.add(producer.send(record));
        }
        return barrier;
    }

    /** The table is ready in {@code partition} as of window {@code windowId}, consistent from {@code hw}. */
    void tableReady(int partition, String table, String windowId, Lsn hw) {
        sends.add(producer.send(TopicCodec.ROWS.record(topic, partition,
            TableReady.of(TableId.of("public", table), windowId, hw))));
    }

    /** A raw record, e.g. poison. */
    void raw(int partition, byte[] key, byte[] value) {
        sends.add(producer.send(new ProducerRecord<>(topic, partition, key, value)));
    }

    /** Waits until Kafka acknowledged everything sent. */
    void flush() {
        producer.flush();
        try {
            for (Future<RecordMetadata> send : sends) {
                send.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("A test record was not written", e.getCause());
        }
        sends.clear();
    }

    /** The current rows of {@code table} by id. */
    Map<String, String> rows(String table) {
        return model.getOrDefault(table, Map.of());
    }

    /** What storage must hold for {@code rules} once caught up, per the reference evaluator. */
    ExpectedBuckets expected(String rules) {
        Map<String, List<ObjectNode>> byTable = new LinkedHashMap<>();
        model.forEach((table, rows) -> {
            List<ObjectNode> nodes = new ArrayList<>();
            rows.values().forEach(json -> nodes.add(parse(json)));
            byTable.put("public." + table, nodes);
        });
        return new ReferenceEvaluator(SyncRules.parse(rules)).evaluate(byTable);
    }

    private void send(RowsMessage message) {
        sends.add(producer.send(TopicCodec.ROWS.recordByKey(topic, partitions, message)));
    }

    private static KeyValues pk(String id) {
        return KeyValues.of("[\"" + id + "\"]");
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
