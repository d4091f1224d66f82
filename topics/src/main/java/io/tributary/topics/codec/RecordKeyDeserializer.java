package io.tributary.topics.codec;

import io.tributary.topics.messages.RecordKey;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka key deserializer: {@link RecordKeys#decode(RecordPosition, byte[])}; {@code null} stays {@code null}.
 * Errors carry the topic only (Kafka adds partition and offset). Thread-safe.
 */
public final class RecordKeyDeserializer implements Deserializer<RecordKey> {

    @Override
    public RecordKey deserialize(String topic, byte[] data) {
        return data == null ? null : RecordKeys.decode(RecordPosition.inTopic(topic), data);
    }
}
