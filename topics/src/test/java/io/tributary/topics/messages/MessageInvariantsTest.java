package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MessageInvariantsTest {

    private static final TableId TABLE = TableId.of("public", "orders");
    private static final KeyValues PK = KeyValues.of("[1]");
    private static final RowJson ROW = RowJson.of("{\"id\":1}");
    private static final Lsn LSN = Lsn.parse("0/10");

    @Test
    void deleteEventsCarryNoRow() {
        assertThatThrownBy(() -> new ChangeEvent(TABLE, ChangeOp.DELETE, PK, Optional.of(ROW), LSN, 0, 1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void insertAndUpdateEventsCarryTheRow() {
        assertThatThrownBy(() -> new ChangeEvent(TABLE, ChangeOp.UPDATE, PK, Optional.empty(), LSN, 0, 1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sequenceNumbersAreNotNegative() {
        assertThatThrownBy(() -> ChangeEvent.insert(TABLE, PK, ROW, LSN, -1, 1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void attemptsStartAtOne() {
        assertThatThrownBy(() -> new ChunkTask("c", TABLE, ChunkRange.all(), 0, TaskPriority.ACTIVE_SNAPSHOT, "w"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nextAttemptKeepsTheChunkAndCountsUp() {
        ChunkTask first = ChunkTask.first("w#0", TABLE, ChunkRange.all(), TaskPriority.ACTIVE_SNAPSHOT, "w");
        assertThat(first.nextAttempt().attempt()).isEqualTo(2);
        assertThat(first.nextAttempt().taskKey()).isEqualTo(first.taskKey());
    }

    @Test
    void tablePlansHaveAtLeastOneChunk() {
        assertThatThrownBy(() -> TablePlan.of(TABLE, "w", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void markerKeysMatchTheirKindsScope() {
        assertThatThrownBy(() -> MarkerKey.of(MarkerKind.BARRIER, 0, TABLE))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkerKey.of(MarkerKind.TABLE_READY, 0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkerKey.of(MarkerKind.CHUNK_DONE, 0, TABLE))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void markersAreKeyedByTheirPartition() {
        assertThat(Barrier.of(1, LSN).keyFor(3)).isEqualTo(MarkerKey.of(MarkerKind.BARRIER, 3));
        assertThat(TableReady.of(TABLE, "w", LSN).keyFor(2)).isEqualTo(MarkerKey.of(MarkerKind.TABLE_READY, 2, TABLE));
    }

    @Test
    void resolvedRowsKeepTheirSourcePosition() {
        ChangeEvent event = ChangeEvent.update(TABLE, PK, ROW, LSN, 4, 9);
        assertThat(ResolvedRow.of(event).source()).isEqualTo(StreamPosition.of(LSN, 4));
        SnapshotRow read = new SnapshotRow(TABLE, PK, ROW, "w#1", "w", 2, PgSnapshot.parse("5:6:"));
        assertThat(ResolvedRow.of(read).source()).isEqualTo(SnapshotPosition.of("w#1", 2));
    }

    @Test
    void deleteEventsDoNotResolveToRows() {
        assertThatThrownBy(() -> ResolvedRow.of(ChangeEvent.delete(TABLE, PK, LSN, 0, 1)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
