package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.delivered;
import static io.tributary.topics.codec.Samples.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeEnvelopeCodecTest {

    private static final TopicCodec<ChangesMessage> CODEC = TopicCodec.CHANGES;

    private static final ChangeEvent INSERT = ChangeEvent.insert(ODD_TABLE, KeyValues.of("[1,\"k\\\"1\"]"),
        RowJson.of("{\"id\":1,\"note\":\"\u00e9t\u00e9\"}"), LSN, 0, 77);
    private static final ChangeEvent UPDATE = ChangeEvent.update(ORDERS, KeyValues.of("[2]"),
        RowJson.of("{\"id\":2}"), LSN, 1, Long.MAX_VALUE);
    private static final ChangeEvent DELETE = ChangeEvent.delete(ORDERS, KeyValues.of("[2]"), LSN, 2, 77);

    @Test
    void everyOperationTravelsInTheBinaryEnvelopeAndRoundTrips() {
        for (ChangeEvent event : List.of(INSERT, UPDATE, DELETE)) {
            byte[] value = CODEC.encodeValue(event);
            assertThat(value[0]).as("version").isEqualTo((byte) 2);
            assertThat(value[1]).as("type").isEqualTo((byte) 4);
            assertThat(CODEC.decode(delivered(CODEC.recordByKey("changes", 8, event), 5))).isEqualTo(event);
        }
    }

    @Test
    void anEventInTheJsonEnvelopeStillReads() {
        byte[] json = CODEC.encodeValue(UPDATE, TopicCodec.FORMAT_VERSION);
        assertThat(json[0]).isEqualTo((byte) '{');
        assertThat(CODEC.decode(raw("changes", 3, 11, new byte[] {1}, json))).isEqualTo(UPDATE);
    }

    @Test
    void aBatchReadsEachEventInTheEnvelopeItHas() {
        byte[] json = CODEC.encodeValue(INSERT, TopicCodec.FORMAT_VERSION);
        byte[] binary = CODEC.encodeValue(DELETE);
        byte[] batch = ByteBuffer.allocate(6 + 4 + json.length + 4 + binary.length).put((byte) 2).put((byte) 3)
            .putInt(2).putInt(json.length).put(json).putInt(binary.length).put(binary).array();
        assertThat(CODEC.decode(raw("changes", 3, 11, new byte[] {1}, batch)))
            .isEqualTo(ChangeEventBatch.of(List.of(INSERT, DELETE)));
    }

    @Test
    void anEventOfATableWithoutAUtf8NameTravelsInTheJsonEnvelope() {
        ChangeEvent event = ChangeEvent.update(TableId.of("public", "t\ud800"), KeyValues.of("[2]"),
            RowJson.of("{\"id\":2}"), LSN, 1, 77);
        byte[] value = CODEC.encodeValue(event);
        assertThat(value[0]).isEqualTo((byte) '{');
        assertThat(CODEC.decode(raw("changes", 3, 11, new byte[] {1}, value))).isEqualTo(event);
    }

    @Test
    void truncatedAndTrailingBytesAreMalformed() {
        byte[] value = CODEC.encodeValue(INSERT);
        assertMalformed(Arrays.copyOf(value, value.length - 1));
        assertMalformed(Arrays.copyOf(value, value.length + 1)).hasMessageContaining("trailing");
        byte[] delete = CODEC.encodeValue(DELETE);
        assertMalformed(Arrays.copyOf(delete, delete.length + 4));
    }

    @Test
    void anUnknownOperationIsMalformed() {
        byte[] value = CODEC.encodeValue(UPDATE);
        int op = 2 + 2 + ORDERS.schema().length() + 2 + ORDERS.name().length();
        value[op] = 9;
        assertMalformed(value).hasMessageContaining("unknown operation 9");
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertMalformed(
        byte[] value) {
        return assertThatThrownBy(() -> CODEC.decode(raw("changes", 3, 11, new byte[] {1}, value)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("changes-3@11");
    }
}
