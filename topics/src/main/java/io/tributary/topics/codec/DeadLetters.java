package io.tributary.topics.codec;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Records for the {@code dead-letters} topic: a record no consumer can process, copied byte for byte (key,
 * value, headers), plus headers saying where it came from and why it failed:
 * {@value #ORIGIN_TOPIC}, {@value #ORIGIN_PARTITION}, {@value #ORIGIN_OFFSET}, {@value #STAGE},
 * {@value #ERROR_CLASS}, {@value #ERROR_MESSAGE} (UTF-8 text). A value longer than {@link #MAX_COPIED_VALUE_BYTES}
 * is left out (the dead letter must fit Kafka's default message size, or the stage could never skip the record):
 * {@value #VALUE_OMITTED} then holds its length, and the origin headers say where to read it. Thread-safe.
 */
public final class DeadLetters {

    public static final String ORIGIN_TOPIC = "tributary.dlt.topic";
    public static final String ORIGIN_PARTITION = "tributary.dlt.partition";
    public static final String ORIGIN_OFFSET = "tributary.dlt.offset";
    public static final String STAGE = "tributary.dlt.stage";
    public static final String ERROR_CLASS = "tributary.dlt.error.class";
    public static final String ERROR_MESSAGE = "tributary.dlt.error.message";
    /** Header present when the value was left out: the value's length in bytes. */
    public static final String VALUE_OMITTED = "tributary.dlt.value.omitted";
    /** The longest value copied into a dead letter: half of Kafka's default 1 MiB message size. */
    public static final int MAX_COPIED_VALUE_BYTES = 512 * 1024;

    private DeadLetters() {
    }

    /**
     * The dead-letter record of {@code poison}, which stage {@code stage} (e.g. {@code stream-worker}) could not
     * process because of {@code error}. The partition is left to the producer.
     */
    public static ProducerRecord<byte[], byte[]> record(String deadLetterTopic, ConsumerRecord<byte[], byte[]> poison,
                                                        String stage, Exception error) {
        Headers headers = new RecordHeaders();
        for (Header header : poison.headers()) {
            headers.add(header);
        }
        add(headers, ORIGIN_TOPIC, poison.topic());
        add(headers, ORIGIN_PARTITION, Integer.toString(poison.partition()));
        add(headers, ORIGIN_OFFSET, Long.toString(poison.offset()));
        add(headers, STAGE, stage);
        add(headers, ERROR_CLASS, error.getClass().getName());
        add(headers, ERROR_MESSAGE, String.valueOf(error.getMessage()));
        byte[] value = poison.value();
        if (value != null && value.length > MAX_COPIED_VALUE_BYTES) {
            add(headers, VALUE_OMITTED, Integer.toString(value.length));
            value = null;
        }
        return new ProducerRecord<>(deadLetterTopic, null, poison.key(), value, headers);
    }

    /** Where a dead-lettered record came from, if it carries the origin headers. */
    public static Optional<RecordPosition> originOf(ConsumerRecord<byte[], byte[]> deadLetter) {
        Optional<String> topic = header(deadLetter.headers(), ORIGIN_TOPIC);
        Optional<String> partition = header(deadLetter.headers(), ORIGIN_PARTITION);
        Optional<String> offset = header(deadLetter.headers(), ORIGIN_OFFSET);
        if (topic.isEmpty() || partition.isEmpty() || offset.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(RecordPosition.of(topic.get(), Integer.parseInt(partition.get()),
                Long.parseLong(offset.get())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The UTF-8 text of the last header {@code name}, if present. */
    public static Optional<String> header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null
            ? Optional.empty() : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
