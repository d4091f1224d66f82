package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.BARRIER;
import static io.tributary.topics.codec.Samples.COMPOSITE_PK;
import static io.tributary.topics.codec.Samples.INSERT;
import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.PK;
import static io.tributary.topics.codec.Samples.ROW;
import static io.tributary.topics.codec.Samples.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChangesCodecTest {

    private static final TopicCodec<ChangesMessage> CODEC = TopicCodec.CHANGES;

    @Test
    void insertEventRoundTrips() {
        assertThat(roundTrip(INSERT)).isEqualTo(INSERT);
    }

    @Test
    void updateEventRoundTrips() {
        ChangeEvent update = ChangeEvent.update(ODD_TABLE, COMPOSITE_PK, ROW, LSN, 3, Long.MAX_VALUE);
        assertThat(roundTrip(update)).isEqualTo(update);
    }

    @Test
    void deleteEventRoundTripsWithoutARow() {
        ChangeEvent delete = ChangeEvent.delete(ORDERS, PK, LSN, 9, 4242);
        assertThat(roundTrip(delete)).isEqualTo(delete);
        assertThat(text(CODEC.encodeValue(delete))).doesNotContain("\"row\"");
    }

    @Test
    void barrierRoundTrips() {
        assertThat(roundTrip(BARRIER)).isEqualTo(BARRIER);
    }

    @Test
    void tableWindowMarkerRoundTrips() {
        TableWindowMarker marker = TableWindowMarker.of(ODD_TABLE, LSN, "window-\u00e9-1");
        assertThat(roundTrip(marker)).isEqualTo(marker);
    }

    @Test
    void tableTruncateRoundTrips() {
        TableTruncate truncate = TableTruncate.of(ORDERS, LSN, 2, 77);
        assertThat(roundTrip(truncate)).isEqualTo(truncate);
    }

    @Test
    void changeEventJsonEnvelopeIsCompactVersionedJson() {
        assertThat(text(CODEC.encodeValue(INSERT, TopicCodec.FORMAT_VERSION))).isEqualTo("{\"v\":1,\"type\":\"change\","
            + "\"table\":[\"public\",\"orders\"],\"op\":\"insert\",\"pk\":[42],"
            + "\"row\":{\"id\":42,\"name\":\"Ada\",\"total\":12.50},\"lsn\":\"16/B374D848\",\"seq\":0,\"tx\":4242}");
    }

    @Test
    void fieldsAfterTheHeaderMayComeInAnyOrderAndUnknownOnesAreSkipped() {
        String value = "{\"v\":1,\"type\":\"barrier\",\"future\":{\"x\":[1,2]},\"lsn\":\"16/B374D848\",\"epoch\":7}";
        assertThat(CODEC.decode(RecordPosition.of("changes", 0, 0), null, value.getBytes(StandardCharsets.UTF_8)))
            .isEqualTo(BARRIER);
    }

    private static ChangesMessage roundTrip(ChangesMessage message) {
        return CODEC.decode(delivered(CODEC.record("changes", 1, message), 10));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
