package io.tributary.writer.consume;

import io.tributary.topics.codec.DeadLetters;
import io.tributary.writer.apply.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends poison records to the dead-letter topic with their origin (topic, partition, offset), the stage
 * ({@value #STAGE}), the sync rules group and the error in headers. Thread-safe (the producer is).
 */
final class DeadLetterSink {

    /** The stage named in dead-letter headers. */
    static final String STAGE = "storage-writer";
    /** Header naming the sync rules group whose writer gave up on the record. */
    static final String GROUP_HEADER = "tributary.dlt.group";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterSink.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final long groupId;

    DeadLetterSink(Producer<byte[], byte[]> producer, String topic, long groupId) {
        this.producer = producer;
        this.topic = topic;
        this.groupId = groupId;
    }

    /** Sends {@code letter}; the returned future completes when Kafka acknowledged it. */
    Future<RecordMetadata> send(DeadLetter letter) {
        LOG.warn("Group {}: dead-lettering {}-{}@{}: {}", groupId, letter.record().topic(),
            letter.record().partition(), letter.record().offset(), letter.error().getMessage());
        ProducerRecord<byte[], byte[]> record = DeadLetters.record(topic, letter.record(), STAGE, letter.error());
        record.headers().add(GROUP_HEADER, Long.toString(groupId).getBytes(StandardCharsets.UTF_8));
        return producer.send(record);
    }
}
