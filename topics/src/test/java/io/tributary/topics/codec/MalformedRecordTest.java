package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.INSERT;
import static io.tributary.topics.codec.Samples.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class MalformedRecordTest {

    @Test
    void unknownVersionIsRejectedNamingThePosition() {
        assertThatThrownBy(() -> TopicCodec.CHANGES.decode(changes("{\"v\":7,\"type\":\"change\"}")))
            .isInstanceOf(MessageFormatException.class)
            .hasMessage("Malformed record at changes-3@1234: unknown version 7 (expected 1)");
    }

    @Test
    void exceptionCarriesTopicPartitionOffsetAndReason() {
        MessageFormatException e = catchThrowableOfType(MessageFormatException.class,
            () -> TopicCodec.CHANGES.decode(changes("{\"v\":2}")));
        assertThat(e.topic()).isEqualTo("changes");
        assertThat(e.partition()).isEqualTo(3);
        assertThat(e.offset()).isEqualTo(1234);
        assertThat(e.reason()).isEqualTo("unknown version 2 (expected 1)");
    }

    @Test
    void bytesThatAreNotJsonAreRejected() {
        assertMalformed(changes("garbage, not json")).hasMessageContaining("invalid JSON");
    }

    @Test
    void emptyValueIsRejected() {
        assertMalformed(changes("")).hasMessageContaining("unexpected end of input");
    }

    @Test
    void truncatedValueIsRejected() {
        byte[] whole = TopicCodec.CHANGES.encodeValue(INSERT);
        byte[] half = Arrays.copyOf(whole, whole.length / 2);
        assertMalformed(raw("changes", 3, 1234, null, half));
    }

    @Test
    void versionMustBeTheFirstField() {
        assertMalformed(changes("{\"type\":\"barrier\",\"v\":1,\"epoch\":1,\"lsn\":\"0/1\"}"))
            .hasMessageContaining("must start with field \"v\"");
    }

    @Test
    void nonIntegerVersionIsRejected() {
        assertMalformed(changes("{\"v\":\"1\",\"type\":\"barrier\"}"));
    }

    @Test
    void typeOfAnotherTopicIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"snapshot-row\"}"))
            .hasMessageContaining("type 'snapshot-row' does not belong on changes");
    }

    @Test
    void unknownTypeIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"gossip\"}")).hasMessageContaining("'gossip'");
    }

    @Test
    void missingFieldIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"barrier\",\"epoch\":1}"))
            .hasMessageContaining("missing field \"lsn\" in barrier");
    }

    @Test
    void fieldOfTheWrongJsonTypeIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"barrier\",\"epoch\":\"1\",\"lsn\":\"0/1\"}"))
            .hasMessageContaining("epoch");
    }

    @Test
    void invalidFieldValueIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"barrier\",\"epoch\":1,\"lsn\":\"zz\"}"))
            .hasMessageContaining("lsn");
    }

    @Test
    void valueBreakingARecordInvariantIsRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"change\",\"table\":[\"s\",\"t\"],\"op\":\"delete\",\"pk\":[1],"
            + "\"row\":{\"a\":1},\"lsn\":\"0/1\",\"seq\":0,\"tx\":1}")).hasMessageContaining("no row");
    }

    @Test
    void trailingBytesAreRejected() {
        assertMalformed(changes("{\"v\":1,\"type\":\"barrier\",\"epoch\":1,\"lsn\":\"0/1\"}{}"))
            .hasMessageContaining("trailing content");
    }

    @Test
    void nullValueOutsideRowsIsRejected() {
        assertMalformed(raw("changes", 3, 1234, RecordKeys.encode(INSERT.rowKey()), null))
            .hasMessageContaining("null value");
    }

    @Test
    void tombstoneUnderAMarkerKeyIsRejected() {
        byte[] key = RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 1));
        assertThatThrownBy(() -> TopicCodec.ROWS.decode(raw("rows", 1, 5, key, null)))
            .isInstanceOf(MessageFormatException.class).hasMessageStartingWith("Malformed record at rows-1@5: ");
    }

    @Test
    void tombstoneWithAMalformedKeyIsRejected() {
        byte[] key = "[1,\"r\"".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> TopicCodec.ROWS.decode(raw("rows", 1, 5, key, null)))
            .isInstanceOf(MessageFormatException.class).hasMessageStartingWith("Malformed record at rows-1@5: key: ");
    }

    private static ConsumerRecord<byte[], byte[]> changes(String value) {
        return raw("changes", 3, 1234, null, value.getBytes(StandardCharsets.UTF_8));
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertMalformed(
            ConsumerRecord<byte[], byte[]> record) {
        return assertThatThrownBy(() -> TopicCodec.CHANGES.decode(record))
            .isInstanceOf(MessageFormatException.class)
            .hasMessageStartingWith("Malformed record at " + record.topic() + "-" + record.partition() + "@"
                + record.offset() + ": ");
    }
}
