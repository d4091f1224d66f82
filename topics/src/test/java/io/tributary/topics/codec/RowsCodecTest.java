package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.BARRIER;
import static io.tributary.topics.codec.Samples.COMPOSITE_PK;
import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.PK;
import static io.tributary.topics.codec.Samples.ROW;
import static io.tributary.topics.codec.Samples.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class RowsCodecTest {

    private static final TopicCodec<RowsMessage> CODEC = TopicCodec.ROWS;

    @Test
    void resolvedRowFromTheStreamRoundTrips() {
        ResolvedRow row = new ResolvedRow(ORDERS, PK, ROW, StreamPosition.of(LSN, 5));
        assertThat(roundTrip(row)).isEqualTo(row);
    }

    @Test
    void resolvedRowFromASnapshotRoundTrips() {
        ResolvedRow row = new ResolvedRow(ODD_TABLE, COMPOSITE_PK, ROW, SnapshotPosition.of("w1#3", 2));
        assertThat(roundTrip(row)).isEqualTo(row);
    }

    @Test
    void resolvedDeleteIsATombstoneUnderTheRowKey() {
        ResolvedDelete delete = ResolvedDelete.of(RowKey.of(ODD_TABLE, COMPOSITE_PK));
        ProducerRecord<byte[], byte[]> record = CODEC.recordByKey("rows", 8, delete);
        assertThat(record.value()).isNull();
        assertThat(record.key()).isEqualTo(RecordKeys.encode(RowKey.of(ODD_TABLE, COMPOSITE_PK)));
    }

    @Test
    void tombstoneDecodesToResolvedDelete() {
        ResolvedDelete delete = ResolvedDelete.of(RowKey.of(ORDERS, PK));
        assertThat(CODEC.decode(delivered(CODEC.recordByKey("rows", 8, delete), 1))).isEqualTo(delete);
    }

    @Test
    void barrierRoundTrips() {
        assertThat(roundTrip(BARRIER)).isEqualTo(BARRIER);
    }

    @Test
    void tableReadyRoundTrips() {
        TableReady ready = TableReady.of(ODD_TABLE, "w1", LSN);
        assertThat(roundTrip(ready)).isEqualTo(ready);
    }

    @Test
    void tableTruncateRoundTrips() {
        TableTruncate truncate = TableTruncate.of(ORDERS, LSN, 0, 12);
        assertThat(roundTrip(truncate)).isEqualTo(truncate);
    }

    private static RowsMessage roundTrip(RowsMessage message) {
        return CODEC.decode(delivered(CODEC.record("rows", 2, message), 99));
    }
}
