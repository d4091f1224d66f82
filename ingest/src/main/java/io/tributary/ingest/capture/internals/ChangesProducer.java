package io.tributary.ingest.capture.internals;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowKeyed;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes {@code changes}: row-keyed messages to their key's partition, markers to every partition, through one
 * idempotent producer ({@code acks=all}), so records of one partition keep their send order. {@link #flush()}
 * returns once Kafka acknowledged everything sent, or throws if anything failed. Not thread-safe.
 */
final class ChangesProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private long sent;

    ChangesProducer(Map<String, String> kafkaProperties, String clientId, String topic, int partitions) {
        Properties props = new Properties();
        props.putAll(kafkaProperties);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.partitions = partitions;
    }

    /**
     * Sends {@code message}; a failure surfaces at the next {@link #flush()}. A row too large for Kafka fails as a
     * {@link RecordTooLargeException} that names the row and the limits to raise.
     */
    void send(ChangesMessage message) {
        if (message instanceof RowKeyed keyed) {
            RowKey key = keyed.rowKey();
            producer.send(TopicCodec.CHANGES.recordByKey(topic, partitions, message), (metadata, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error instanceof RecordTooLargeException
                        ? new RecordTooLargeException(oversized(key, error), error) : error);
                }
            });
            sent++;
        } else {
            for (ProducerRecord<byte[], byte[]> record
                : TopicCodec.CHANGES.recordsToEveryPartition(topic, partitions, message)) {
                send(record);
            }
        }
    }

    /** Sends {@code record} as it is (explicit partition); a failure surfaces at the next {@link #flush()}. */
    void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
        sent++;
    }

    private String oversized(RowKey key, Exception error) {
        return "The change of " + key.table().quoted() + " key " + key.pk().json() + " is too large for Kafka ("
            + error.getMessage() + "). Raise the limits above the largest row: kafka.properties.max.request.size and"
            + " kafka.properties.buffer.memory, and max.message.bytes of the topics " + topic + ", its snapshot-rows"
            + " and rows (kafka-configs --alter); then restart: ingest resumes at this change";
    }

    /**
     * Waits until Kafka acknowledged every record sent so far.
     *
     * @throws ChangesDeliveryException if a record was not acknowledged
     */
    void flush() {
        producer.flush();
        Exception error = failure.get();
        if (error != null) {
            throw new ChangesDeliveryException("Kafka did not acknowledge a record of " + topic + ": "
                + error.getMessage(), error);
        }
    }

    /** Records sent so far. */
    long sent() {
        return sent;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    /** Closes without waiting for unsent records (they are dropped, as in a crash). */
    void abort() {
        producer.close(Duration.ZERO);
    }
}
