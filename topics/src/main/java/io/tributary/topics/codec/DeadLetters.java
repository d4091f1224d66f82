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
 * {@value #ERROR_CLASS}, {@value #ERROR_MESSAGE} (UTF-8 text). Thread-safe.
 */
public final class DeadLetters {

    public static final String ORIGIN_TOPIC = "tributary.dlt.topic";
    public static final String ORIGIN_PARTITION = "tributary.dlt.partition";
    public static final String ORIGIN_OFFSET = "tributary.dlt.offset";
    public static final String STAGE = "tributary.dlt.stage";
    public static final String ERROR_CLASS = "tributary.dlt.error.class";
    public static final String ERROR_MESSAGE = "tributary.dlt.error.message";

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
        return new ProducerRecord<>(deadLetterTopic, null, poison.key(), poison.value(), headers);
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
