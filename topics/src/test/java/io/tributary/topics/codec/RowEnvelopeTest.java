package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.COMPOSITE_PK;
import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.PK;
import static io.tributary.topics.codec.Samples.ROW;
import static io.tributary.topics.codec.Samples.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.codec.internals.ValueEncoder;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The binary envelope of the rows of {@code rows} (version 2), and the JSON one (version 1) it replaces. */
class RowEnvelopeTest {

    private static final ResolvedRow STREAMED = new ResolvedRow(ORDERS, PK, ROW, StreamPosition.of(LSN, 5));
    private static final ResolvedRow SNAPSHOTTED = new ResolvedRow(ODD_TABLE, COMPOSITE_PK,
        RowJson.of("{\"id\":\"\u00e9\\u0000\",\"n\":[1,{\"a\":null}]}"), SnapshotPosition.of("w1#3 \u4e2d", 2));

    @Test
    void rowsAreWrittenInTheBinaryEnvelope() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        assertThat(value[0]).isEqualTo((byte) TopicCodec.ROW_ENVELOPE_VERSION);
        assertThat(value).containsSubsequence(ROW.unsafeUtf8());
    }

    @Test
    void streamedRowRoundTrips() {
        assertThat(decode(TopicCodec.ROWS.encodeValue(STREAMED))).isEqualTo(STREAMED);
    }

    @Test
    void snapshottedRowWithNonAsciiTextsRoundTripsByteForByte() {
        ResolvedRow decoded = (ResolvedRow) decode(TopicCodec.ROWS.encodeValue(SNAPSHOTTED));
        assertThat(decoded).isEqualTo(SNAPSHOTTED);
        assertThat(decoded.row().unsafeUtf8()).isEqualTo(SNAPSHOTTED.row().unsafeUtf8());
    }

    @Test
    void jsonEnvelopeOfARowIsStillRead() {
        assertThat(decode(ValueEncoder.encode(SNAPSHOTTED))).isEqualTo(SNAPSHOTTED);
    }

    @Test
    void aRowCanBeWrittenInTheJsonEnvelopeForOlderReaders() {
        byte[] value = TopicCodec.ROWS.encodeValue(SNAPSHOTTED, TopicCodec.FORMAT_VERSION);
        assertThat(value).isEqualTo(ValueEncoder.encode(SNAPSHOTTED));
        assertThat(TopicCodec.ROWS.encodeValue(SNAPSHOTTED, TopicCodec.ROW_ENVELOPE_VERSION))
            .isEqualTo(TopicCodec.ROWS.encodeValue(SNAPSHOTTED));
        assertThatThrownBy(() -> TopicCodec.CHANGES.encodeValue(Samples.BARRIER, TopicCodec.ROW_ENVELOPE_VERSION))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tableWithoutAUtf8FormIsWrittenAsJson() {
        ResolvedRow lone = new ResolvedRow(TableId.of("public", "t\ud83d"), PK, ROW, StreamPosition.of(LSN, 1));
        byte[] value = TopicCodec.ROWS.encodeValue(lone);
        assertThat(value[0]).isEqualTo((byte) '{');
        assertThat(decode(value)).isEqualTo(lone);
    }

    @Test
    void unknownBinaryVersionIsRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        value[0] = 3;
        assertMalformed(value).hasMessageContaining("unknown version 3");
    }

    @Test
    void unknownTypeIsRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        value[1] = 9;
        assertMalformed(value).hasMessageContaining("unknown binary type 9");
    }

    @Test
    void everyTruncationIsRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(SNAPSHOTTED);
        for (int length = 1; length < value.length; length++) {
            assertMalformed(Arrays.copyOf(value, length));
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        assertMalformed(Arrays.copyOf(value, value.length + 1)).hasMessageContaining("trailing content");
    }

    @Test
    void tableNameThatIsNotUtf8IsRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        value[4] = (byte) 0xC3; // the first byte of "public": a lead byte followed by an ASCII byte
        assertMalformed(value).hasMessageContaining("schema is not UTF-8");
    }

    @Test
    void rowThatIsNotAnObjectIsRejected() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        value[value.length - 1] = ']';
        assertMalformed(value).hasMessageContaining("A row must be a JSON object");
    }

    @Test
    void binaryEnvelopeIsOnlyReadOnRows() {
        byte[] value = TopicCodec.ROWS.encodeValue(STREAMED);
        assertThatThrownBy(() -> TopicCodec.CHANGES.decode(RecordPosition.of("changes", 0, 1), null, value))
            .isInstanceOf(MessageFormatException.class);
    }

    private static Object decode(byte[] value) {
        return TopicCodec.ROWS.decode(raw("rows", 1, 7, "k".getBytes(StandardCharsets.UTF_8), value));
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertMalformed(byte[] value) {
        return assertThatThrownBy(() -> decode(value)).isInstanceOf(MessageFormatException.class)
            .hasMessageContaining("rows-1@7");
    }
}
