package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskKey;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordKeysTest {

    private static final RecordPosition AT = RecordPosition.of("rows", 2, 77);

    @Test
    void rowKeyIsACompactVersionedArray() {
        assertThat(text(RecordKeys.encode(RowKey.of(ORDERS, KeyValues.of("[42]")))))
            .isEqualTo("[1,\"r\",\"public\",\"orders\",[42]]");
    }

    @Test
    void separatelyBuiltEqualRowKeysEncodeToIdenticalBytes() {
        String pk = new StringBuilder("[\"a\",").append(7).append(']').toString();
        RowKey first = RowKey.of(TableId.of("public", "orders"), KeyValues.of(pk));
        RowKey second = RowKey.of(TableId.of(new String("public"), "ord" + "ers"), KeyValues.of("[\"a\",7]"));
        assertThat(RecordKeys.encode(first)).isEqualTo(RecordKeys.encode(second));
    }

    @Test
    void tableNamesWithDotsAndQuotesDoNotCollide() {
        byte[] a = RecordKeys.encode(RowKey.of(TableId.of("a.b", "c"), KeyValues.of("[1]")));
        byte[] b = RecordKeys.encode(RowKey.of(TableId.of("a", "b.c"), KeyValues.of("[1]")));
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void rowKeyRoundTripsWithThePrimaryKeyVerbatim() {
        RowKey key = RowKey.of(ODD_TABLE, KeyValues.of("[\"\\u00e9t\\u00e9\",1.50E+3,-0.0,{\"nested\":[1]}]"));
        assertThat(RecordKeys.decode(AT, RecordKeys.encode(key))).isEqualTo(key);
    }

    @Test
    void markerKeysRoundTripForEveryKind() {
        for (MarkerKind kind : MarkerKind.values()) {
            MarkerKey key = switch (kind.scope()) {
                case PARTITION -> MarkerKey.of(kind, 5);
                case TABLE -> MarkerKey.of(kind, 5, ODD_TABLE);
                case CHUNK -> MarkerKey.of(kind, 5, "w1#3");
            };
            assertThat(RecordKeys.decode(AT, RecordKeys.encode(key))).as(kind.name()).isEqualTo(key);
        }
    }

    @Test
    void markerKeyNamesKindAndPartition() {
        assertThat(text(RecordKeys.encode(MarkerKey.of(MarkerKind.TABLE_READY, 3, ORDERS))))
            .isEqualTo("[1,\"m\",\"table-ready\",3,\"public\",\"orders\"]");
        assertThat(text(RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 0)))).isEqualTo("[1,\"m\",\"barrier\",0]");
    }

    @Test
    void taskKeyRoundTrips() {
        assertThat(RecordKeys.decode(AT, RecordKeys.encode(TaskKey.of("w1#3")))).isEqualTo(TaskKey.of("w1#3"));
    }

    @Test
    void unknownKeyVersionIsRejectedWithThePosition() {
        assertThatThrownBy(() -> RecordKeys.decode(AT, bytes("[2,\"r\",\"public\",\"orders\",[42]]")))
            .isInstanceOf(MessageFormatException.class)
            .hasMessage("Malformed record at rows-2@77: key: unknown key version 2 (expected 1)");
    }

    @Test
    void malformedKeysAreRejectedWithThePosition() {
        String[] bad = {"", "garbage", "[1,\"r\",\"public\",\"orders\"", "[1,\"r\",\"public\",\"orders\",[42]] x",
            "[1,\"x\",\"a\"]", "[1,\"r\",\"public\",\"orders\",42]", "[1,\"m\",\"nope\",0]", "[1,\"m\",\"barrier\",-1]",
            "[1,\"m\",\"barrier\",0,\"extra\"]", "{\"v\":1}", "[1,\"r\",\"\",\"orders\",[1]]"};
        for (String key : bad) {
            assertThatThrownBy(() -> RecordKeys.decode(AT, bytes(key))).as(key)
                .isInstanceOf(MessageFormatException.class)
                .satisfies(e -> assertThat(((MessageFormatException) e).position()).isEqualTo(AT));
        }
    }

    @Test
    void nullKeyIsRejected() {
        assertThatThrownBy(() -> RecordKeys.decode(AT, null)).isInstanceOf(MessageFormatException.class)
            .hasMessageContaining("null key");
    }

    @Test
    void decodeRowKeyRefusesMarkerKeys() {
        byte[] marker = RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 1));
        assertThatThrownBy(() -> RecordKeys.decodeRowKey(AT, marker)).isInstanceOf(MessageFormatException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
