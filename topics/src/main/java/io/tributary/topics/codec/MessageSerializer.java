package io.tributary.topics.codec;

import io.tributary.topics.messages.TopicMessage;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka value serializer over a {@link TopicCodec}. Thread-safe. */
final class MessageSerializer<M extends TopicMessage> implements Serializer<M> {

    private final TopicCodec<M> codec;

    MessageSerializer(TopicCodec<M> codec) {
        this.codec = codec;
    }

    @Override
    public byte[] serialize(String topic, M message) {
        return message == null ? null : codec.encodeValue(message);
    }
}
