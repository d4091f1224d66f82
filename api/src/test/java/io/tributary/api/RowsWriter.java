package io.tributary.api;

import io.tributary.testing.TestServices;
import io.tributary.topics.TopicNames;
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
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Test stand-in for the stream workers: writes resolved rows, tombstones and barriers of {@code public.<table>}
 * tables (one-column key {@code id}) into {@code rows}, which a real storage writer turns into bucket ops. A
 * barrier's LSN is the source's current WAL position when given, so write checkpoints can be covered. Not
 * thread-safe.
 */
final class RowsWriter implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private long lsn = 1;
    private long epoch = -1;

    RowsWriter(TestServices services, TopicNames names, int partitions) {
        Properties properties = services.kafkaProperties();
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = names.rows();
        this.partitions = partitions;
    }

    /** Row {@code id} of {@code table} now is {@code json}. */
    void upsert(String table, String id, String json) {
        send(new ResolvedRow(TableId.of("public", table), pk(id), RowJson.of(json),
            StreamPosition.of(Lsn.of(lsn++), 0)));
    }

    /** Row {@code id} of {@code table} is deleted. */
    void delete(String table, String id) {
        send(ResolvedDelete.of(RowKey.of(TableId.of("public", table), pk(id))));
    }

    /** Ends the current epoch in every partition, at an LSN above every earlier one and at least {@code atLeast}. */
    Barrier barrier(long atLeast) {
        epoch++;
        lsn = Math.max(Math.max(lsn, atLeast), (epoch + 1) * 1_000);
        Barrier barrier = Barrier.of(epoch, Lsn.of(lsn++));
        for (ProducerRecord<byte[], byte[]> record : TopicCodec.ROWS.recordsToEveryPartition(topic, partitions,
            barrier)) {
            producer.send(record);
        }
        producer.flush();
        return barrier;
    }

    /** Ends the current epoch in every partition. */
    Barrier barrier() {
        return barrier(0);
    }

    private void send(RowsMessage message) {
        producer.send(TopicCodec.ROWS.recordByKey(topic, partitions, message));
    }

    private static KeyValues pk(String id) {
        return KeyValues.of("[\"" + id + "\"]");
    }

    @Override
    public void close() {
        producer.close();
    }
}
