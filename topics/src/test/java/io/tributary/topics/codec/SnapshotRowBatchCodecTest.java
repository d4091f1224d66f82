package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.SNAPSHOT;
import static io.tributary.topics.codec.Samples.TASK;
import static io.tributary.topics.codec.Samples.delivered;
import static io.tributary.topics.codec.Samples.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TaskPriority;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class SnapshotRowBatchCodecTest {

    private static final TopicCodec<SnapshotRowsMessage> CODEC = TopicCodec.SNAPSHOT_ROWS;

    private static SnapshotRow row(ChunkTask task, int id, PgSnapshot snapshot) {
        return SnapshotRow.of(task, KeyValues.of("[" + id + ",\"k\\\"" + id + "\"]"),
            RowJson.of("{\"id\":" + id + ",\"note\":\"\u00e9t\u00e9 " + id + "\"}"), snapshot);
    }

    @Test
    void batchRoundTripsWithEveryRowVerbatim() {
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(TASK, 1, SNAPSHOT), row(TASK, 2, SNAPSHOT),
            row(TASK, 3, SNAPSHOT)));
        SnapshotRowsMessage decoded = CODEC.decode(delivered(CODEC.record("snapshot-rows", 4, batch), 9));
        assertThat(decoded).isEqualTo(batch);
    }

    @Test
    void batchOfAnOddTableWithAnEmptySnapshotRoundTrips() {
        ChunkTask task = ChunkTask.first("w7#0", ODD_TABLE, ChunkRange.all(), TaskPriority.ACTIVE_SNAPSHOT, "w7");
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(task, 5, PgSnapshot.parse("5:5:"))));
        assertThat(CODEC.decode(delivered(CODEC.record("snapshot-rows", 0, batch), 1))).isEqualTo(batch);
    }

    @Test
    void batchIsKeyedByItsFirstRow() {
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(TASK, 1, SNAPSHOT), row(TASK, 2, SNAPSHOT)));
        ProducerRecord<byte[], byte[]> record = CODEC.record("snapshot-rows", 2, batch);
        assertThat(RecordKeys.decode(delivered(record, 0)))
            .isEqualTo(RowKey.of(ORDERS, batch.rows().get(0).pk()));
    }

    @Test
    void rowsOfDifferentChunksCannotShareABatch() {
        ChunkTask other = new ChunkTask("w1#4", ORDERS, ChunkRange.all(), 1, TaskPriority.ACTIVE_SNAPSHOT, "w1");
        assertThatThrownBy(() -> SnapshotRowBatch.of(List.of(row(TASK, 1, SNAPSHOT), row(other, 2, SNAPSHOT))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("w1#4");
        assertThatThrownBy(() -> SnapshotRowBatch.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void truncatedOrTrailingBatchIsAFormatErrorNamingItsPlace() {
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(TASK, 1, SNAPSHOT), row(TASK, 2, SNAPSHOT)));
        byte[] value = CODEC.encodeValue(batch);
        byte[] key = CODEC.encodeKey(batch, 0);
        byte[] cut = Arrays.copyOf(value, value.length - 3);
        byte[] longer = Arrays.copyOf(value, value.length + 1);
        assertThatThrownBy(() -> CODEC.decode(raw("snapshot-rows", 1, 17, key, cut)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("snapshot-rows-1@17")
            .hasMessageContaining("row");
        assertThatThrownBy(() -> CODEC.decode(raw("snapshot-rows", 1, 18, key, longer)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("trailing");
    }

    @Test
    void unknownBinaryVersionOrTypeIsRejected() {
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(TASK, 1, SNAPSHOT)));
        byte[] version = CODEC.encodeValue(batch);
        version[0] = 3;
        byte[] type = CODEC.encodeValue(batch);
        type[1] = 1;
        byte[] key = CODEC.encodeKey(batch, 0);
        assertThatThrownBy(() -> CODEC.decode(raw("snapshot-rows", 0, 1, key, version)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("unknown version 3");
        assertThatThrownBy(() -> CODEC.decode(raw("snapshot-rows", 0, 2, key, type)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("unknown binary type 1");
    }

    @Test
    void chunkWhoseIdsHaveNoUtf8FormIsNotBatched() {
        ChunkTask surrogate = ChunkTask.first("w1#\ud800", ORDERS, ChunkRange.all(), TaskPriority.ACTIVE_SNAPSHOT,
            "w1");
        assertThat(TopicCodec.batchesRowsOf(TASK)).isTrue();
        assertThat(TopicCodec.batchesRowsOf(surrogate)).isFalse();
        SnapshotRowBatch batch = SnapshotRowBatch.of(List.of(row(surrogate, 1, SNAPSHOT)));
        assertThatThrownBy(() -> CODEC.encodeValue(batch)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("one to a record");
    }
}
