package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.CHUNK_DONE;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.PK;
import static io.tributary.topics.codec.Samples.SNAPSHOT_ROW;
import static io.tributary.topics.codec.Samples.TASK;
import static io.tributary.topics.codec.Samples.delivered;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.SnapshotTaskMessage;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotCodecsTest {

    @Test
    void chunkTaskRoundTrips() {
        assertThat(roundTrip(TASK)).isEqualTo(TASK);
    }

    @Test
    void chunkTaskWithUnboundedEndsRoundTrips() {
        ChunkTask whole = ChunkTask.first("w2#0", ODD_TABLE, ChunkRange.all(), TaskPriority.ACTIVE_SNAPSHOT, "w2");
        ChunkTask first = ChunkTask.first("w2#1", ORDERS, ChunkRange.until(KeyValues.of("[\"m\",2]")),
            TaskPriority.ACTIVE_SNAPSHOT, "w2");
        ChunkTask last = ChunkTask.first("w2#2", ORDERS, ChunkRange.from(KeyValues.of("[\"m\",2]")),
            TaskPriority.ACTIVE_SNAPSHOT, "w2");
        assertThat(List.of(roundTrip(whole), roundTrip(first), roundTrip(last))).containsExactly(whole, first, last);
    }

    @Test
    void snapshotRowRoundTrips() {
        assertThat(roundTrip(SNAPSHOT_ROW)).isEqualTo(SNAPSHOT_ROW);
    }

    @Test
    void snapshotRowWithAnEmptyInProgressListRoundTrips() {
        SnapshotRow row = new SnapshotRow(ORDERS, PK, Samples.ROW, "w1#0", "w1", 1, PgSnapshot.parse("5:5:"));
        assertThat(roundTrip(row)).isEqualTo(row);
    }

    @Test
    void chunkDoneRoundTrips() {
        assertThat(roundTrip(CHUNK_DONE)).isEqualTo(CHUNK_DONE);
    }

    @Test
    void tablePlanRoundTrips() {
        TablePlan plan = TablePlan.of(ODD_TABLE, "w1", 12_000);
        assertThat(roundTrip(plan)).isEqualTo(plan);
    }

    private static SnapshotTaskMessage roundTrip(ChunkTask task) {
        TopicCodec<SnapshotTaskMessage> codec = TopicCodec.SNAPSHOT_TASKS;
        return codec.decode(delivered(codec.record("snapshot-tasks", 0, task), 3));
    }

    private static SnapshotRowsMessage roundTrip(SnapshotRowsMessage message) {
        TopicCodec<SnapshotRowsMessage> codec = TopicCodec.SNAPSHOT_ROWS;
        return codec.decode(delivered(codec.record("snapshot-rows", 4, message), 3));
    }
}
