package io.tributary.topics.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

    @Test
    void deadLetterCopiesTheBytesAndRecordsWhereAndWhy() {
        ConsumerRecord<byte[], byte[]> poison = Samples.raw("acme.changes", 3, 1234, bytes("[1,\"x\"]"), bytes("{"));
        poison.headers().add("trace", bytes("abc"));
        MessageFormatException error = new MessageFormatException(RecordPosition.of(poison), "bad", null);

        ProducerRecord<byte[], byte[]> dead = DeadLetters.record("acme.dead-letters", poison, "stream-worker", error);

        assertThat(dead.topic()).isEqualTo("acme.dead-letters");
        assertThat(dead.key()).isEqualTo(poison.key());
        assertThat(dead.value()).isEqualTo(poison.value());
        assertThat(DeadLetters.header(dead.headers(), "trace")).contains("abc");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.STAGE)).contains("stream-worker");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).contains(error.getMessage());
        ConsumerRecord<byte[], byte[]> polled = new ConsumerRecord<>(dead.topic(), 0, 0, dead.key(), dead.value());
        dead.headers().forEach(h -> polled.headers().add(h));
        assertThat(DeadLetters.originOf(polled)).contains(RecordPosition.of("acme.changes", 3, 1234));
    }

    @Test
    void aValueTooLargeForADeadLetterIsLeftOutAndItsLengthRecorded() {
        byte[] huge = new byte[DeadLetters.MAX_COPIED_VALUE_BYTES + 1];
        ConsumerRecord<byte[], byte[]> poison = Samples.raw("acme.rows", 1, 139, bytes("[1]"), huge);
        MessageFormatException error = new MessageFormatException(RecordPosition.of(poison), "bad", null);

        ProducerRecord<byte[], byte[]> dead = DeadLetters.record("acme.dead-letters", poison, "storage-writer", error);

        assertThat(dead.value()).isNull();
        assertThat(dead.key()).isEqualTo(poison.key());
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.VALUE_OMITTED))
            .contains(Integer.toString(huge.length));
    }

    @Test
    void aValueOfTheLargestCopiedSizeIsCopied() {
        byte[] value = new byte[DeadLetters.MAX_COPIED_VALUE_BYTES];
        ConsumerRecord<byte[], byte[]> poison = Samples.raw("acme.rows", 1, 139, bytes("[1]"), value);
        MessageFormatException error = new MessageFormatException(RecordPosition.of(poison), "bad", null);

        ProducerRecord<byte[], byte[]> dead = DeadLetters.record("acme.dead-letters", poison, "storage-writer", error);

        assertThat(dead.value()).isEqualTo(value);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.VALUE_OMITTED)).isEmpty();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
