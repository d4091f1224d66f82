package io.tributary.stream.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.stream.merge.ChunkState;
import io.tributary.stream.merge.PartitionState;
import io.tributary.stream.merge.TableState;
import io.tributary.stream.merge.WindowState;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StateCodecTest {

    private static final TableId TABLE = TableId.of("tenant_7", "orders");

    @Test
    void partitionStateRoundTrips() {
        PartitionState empty = PartitionState.initial();
        PartitionState full = empty.withHighWater(StreamPosition.of(Lsn.of(-2), 7))
            .withBarrier(Barrier.of(42, Lsn.of(0xABCDEFL)));

        assertThat(StateCodec.decodePartition(StateCodec.encode(empty))).isEqualTo(empty);
        assertThat(StateCodec.decodePartition(StateCodec.encode(full))).isEqualTo(full);
    }

    @Test
    void tableStateRoundTripsWithItsWindows() {
        TableState state = TableState.initial(TABLE).open("old").open("wé#2")
            .withWindow(WindowState.pending("next").withChunkCount(3).withChunkDone(Lsn.of(99)))
            .withTruncation(1234);

        TableState decoded = StateCodec.decodeTable(TABLE, StateCodec.encode(state));

        assertThat(decoded).isEqualTo(state);
        assertThat(decoded.windows()).containsOnlyKeys("old", "wé#2", "next");
    }

    @Test
    void chunkStateRoundTrips() {
        ChunkState fresh = ChunkState.first("w#1", "w", 1);
        ChunkState done = fresh.withAttempt(3).doneBy(3, "w");
        ChunkState withoutWindow = new ChunkState("w#1", 2, false, Optional.empty());

        assertThat(StateCodec.decodeChunk("w#1", StateCodec.encode(fresh))).isEqualTo(fresh);
        assertThat(StateCodec.decodeChunk("w#1", StateCodec.encode(done))).isEqualTo(done);
        assertThat(StateCodec.decodeChunk("w#1", StateCodec.encode(withoutWindow))).isEqualTo(withoutWindow);
        assertThat(done.windowId()).isEqualTo(Optional.of("w"));
    }

    @Test
    void txIdRoundTrips() {
        assertThat(StateCodec.decodeTxId(StateCodec.encodeTxId(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void unknownVersionIsRejected() {
        byte[] bytes = StateCodec.encodeTxId(5);
        bytes[0] = 2;

        assertThatThrownBy(() -> StateCodec.decodeTxId(bytes)).isInstanceOf(StateFormatException.class)
            .hasMessageContaining("unknown state format version 2");
    }

    @Test
    void truncatedOrOverlongBytesAreRejected() {
        byte[] chunk = StateCodec.encode(ChunkState.first("c", "w", 1));

        assertThatThrownBy(() -> StateCodec.decodeChunk("c", Arrays.copyOf(chunk, chunk.length - 1)))
            .isInstanceOf(StateFormatException.class).hasMessageContaining("chunk state of c");
        assertThatThrownBy(() -> StateCodec.decodeChunk("c", Arrays.copyOf(chunk, chunk.length + 1)))
            .isInstanceOf(StateFormatException.class).hasMessageContaining("trailing");
    }
}
