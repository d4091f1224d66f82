package io.tributary.topics.codec;

import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Where a record sits: topic, partition and offset. A position from a Kafka {@code Deserializer} knows only the
 * topic; its partition and offset are {@code -1}.
 *
 * @param topic     the topic
 * @param partition the partition, or {@code -1} if unknown
 * @param offset    the offset, or {@code -1} if unknown
 */
public record RecordPosition(String topic, int partition, long offset) {

    public RecordPosition {
        Objects.requireNonNull(topic, "topic");
        if (partition < -1 || offset < -1) {
            throw new IllegalArgumentException("partition and offset must be >= 0 or -1 (unknown), got "
                + partition + "@" + offset);
        }
    }

    /** The position {@code topic-partition@offset}. */
    public static RecordPosition of(String topic, int partition, long offset) {
        return new RecordPosition(topic, partition, offset);
    }

    /** The position of {@code record}. */
    public static RecordPosition of(ConsumerRecord<?, ?> record) {
        return new RecordPosition(record.topic(), record.partition(), record.offset());
    }

    /** A record of {@code topic} at an unknown partition and offset. */
    public static RecordPosition inTopic(String topic) {
        return new RecordPosition(topic, -1, -1);
    }

    /** Whether partition and offset are known. */
    public boolean isExact() {
        return partition >= 0 && offset >= 0;
    }

    /** {@code topic-partition@offset}, with {@code ?} for unknown parts (Kafka's {@code TopicPartition} style). */
    @Override
    public String toString() {
        return topic + "-" + (partition >= 0 ? Integer.toString(partition) : "?") + "@"
            + (offset >= 0 ? Long.toString(offset) : "?");
    }
}
