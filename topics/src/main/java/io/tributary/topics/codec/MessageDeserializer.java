package io.tributary.topics.codec;

import io.tributary.topics.messages.TopicMessage;
import org.apache.kafka.common.serialization.Deserializer;

/** Kafka value deserializer over a {@link TopicCodec}; {@code null} stays {@code null}. Thread-safe. */
final class MessageDeserializer<M extends TopicMessage> implements Deserializer<M> {

    private final TopicCodec<M> codec;

    MessageDeserializer(TopicCodec<M> codec) {
        this.codec = codec;
    }

    @Override
    public M deserialize(String topic, byte[] data) {
        return data == null ? null : codec.decode(RecordPosition.inTopic(topic), null, data);
    }
}
