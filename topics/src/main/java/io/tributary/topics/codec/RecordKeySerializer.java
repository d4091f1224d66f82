package io.tributary.topics.codec;

import io.tributary.topics.messages.RecordKey;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka key serializer: {@link RecordKeys#encode(RecordKey)}. Thread-safe. */
public final class RecordKeySerializer implements Serializer<RecordKey> {

    @Override
    public byte[] serialize(String topic, RecordKey key) {
        return key == null ? null : RecordKeys.encode(key);
    }
}
