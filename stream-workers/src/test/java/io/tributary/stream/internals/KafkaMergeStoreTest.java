package io.tributary.stream.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.merge.ChunkState;
import io.tributary.stream.merge.PartitionState;
import io.tributary.stream.merge.TableState;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The Kafka Streams merge store over in-memory key-value stores (same code path as RocksDB). */
class KafkaMergeStoreTest {

    private static final TableId ITEMS = TableId.of("public", "items");

    private final KeyValueStore<Bytes, byte[]> state = store("state");
    private final KeyValueStore<Bytes, byte[]> keys = store("keys");

    @Test
    void statesReadBackAsWrittenByAFreshInstance() {
        KafkaMergeStore store = new KafkaMergeStore(state, keys);
        PartitionState partition = PartitionState.initial().withHighWater(StreamPosition.of(Lsn.of(9), 1));
        TableState table = TableState.initial(ITEMS).open("w");
        store.putPartition(partition);
        store.putTable(table);
        store.putChunk(ITEMS, ChunkState.first("w#0", "w", 2));
        store.putLastTxId(ITEMS, 1, pk(5), 777);

        KafkaMergeStore reopened = new KafkaMergeStore(state, keys);

        assertThat(reopened.partition()).isEqualTo(partition);
        assertThat(reopened.table(ITEMS)).contains(table);
        assertThat(reopened.chunk(ITEMS, "w#0")).contains(ChunkState.first("w#0", "w", 2));
        assertThat(reopened.lastTxId(ITEMS, 1, pk(5))).hasValue(777);
    }

    @Test
    void keyOfAGenerationLookedUpWhileEmptyIsFoundOnceRemembered() {
        KafkaMergeStore store = new KafkaMergeStore(state, keys);
        assertThat(store.lastTxId(ITEMS, 1, pk(5))).isEmpty();

        store.putLastTxId(ITEMS, 1, pk(5), 42);

        assertThat(store.lastTxId(ITEMS, 1, pk(5))).hasValue(42);
        assertThat(store.lastTxId(ITEMS, 1, pk(6))).isEmpty();
        assertThat(store.lastTxId(ITEMS, 2, pk(5))).isEmpty();
        assertThat(new KafkaMergeStore(state, keys).lastTxId(ITEMS, 1, pk(5))).hasValue(42);
        assertThat(new KafkaMergeStore(state, keys).lastTxId(ITEMS, 0, pk(5))).isEmpty();
    }

    @Test
    void chunkStateReadBeforeAPutReadsTheNewStateAfterIt() {
        KafkaMergeStore store = new KafkaMergeStore(state, keys);
        assertThat(store.chunk(ITEMS, "w#0")).isEmpty();

        store.putChunk(ITEMS, ChunkState.first("w#0", "w", 1));
        store.putChunk(ITEMS, ChunkState.first("w#0", "w", 1).withAttempt(2));

        assertThat(store.chunk(ITEMS, "w#0")).contains(ChunkState.first("w#0", "w", 1).withAttempt(2));
        assertThat(new KafkaMergeStore(state, keys).chunk(ITEMS, "w#0"))
            .contains(ChunkState.first("w#0", "w", 1).withAttempt(2));
    }

    @Test
    void releasedChunksAreThoseOfTheWindowAndTableOnly() {
        KafkaMergeStore store = new KafkaMergeStore(state, keys);
        TableId orders = TableId.of("public", "orders");
        store.putChunk(ITEMS, ChunkState.first("w1#0", "w1", 1));
        store.putChunk(ITEMS, ChunkState.first("w1#1", "w1", 1).doneBy(1, "w1"));
        store.putChunk(ITEMS, ChunkState.first("w2#0", "w2", 1));
        store.putChunk(orders, ChunkState.first("w1#0", "w1", 1));
        assertThat(store.chunk(ITEMS, "w1#0")).isPresent();

        store.releaseChunks(ITEMS, "w1");

        assertThat(store.chunk(ITEMS, "w1#0")).isEmpty();
        assertThat(new KafkaMergeStore(state, keys).chunk(ITEMS, "w1#1")).isEmpty();
        assertThat(store.chunk(ITEMS, "w2#0")).isPresent();
        assertThat(store.chunk(orders, "w1#0")).isPresent();
        assertThat(state.approximateNumEntries()).isEqualTo(2);
    }

    @Test
    void chunkStatesOfWindowsClosedBeforeAreReleasedAfterTheStoreOpens() {
        KafkaMergeStore earlier = new KafkaMergeStore(state, keys);
        earlier.putTable(TableState.initial(ITEMS).open("w1").ready("w1").open("w2"));
        earlier.putChunk(ITEMS, ChunkState.first("w1#0", "w1", 1).doneBy(1, "w1"));
        earlier.putChunk(ITEMS, ChunkState.first("w2#0", "w2", 1));
        earlier.putChunk(ITEMS, new ChunkState("w0#0", 1, false, Optional.empty()));

        KafkaMergeStore reopened = new KafkaMergeStore(state, keys);
        assertThat(reopened.chunk(ITEMS, "w1#0")).isPresent();
        assertThat(reopened.hasPendingReleases()).isTrue();

        assertThat(reopened.releaseSome(100)).isEqualTo(1);

        assertThat(reopened.chunk(ITEMS, "w1#0")).isEmpty();
        assertThat(reopened.chunk(ITEMS, "w2#0")).isPresent();
        assertThat(reopened.chunk(ITEMS, "w0#0")).isPresent();
        assertThat(reopened.hasPendingReleases()).isFalse();
    }

    @Test
    void releaseDeletesOnlyItsGenerationInBoundedSteps() {
        KafkaMergeStore store = new KafkaMergeStore(state, keys);
        for (int id = 0; id < 250; id++) {
            store.putLastTxId(ITEMS, 1, pk(id), id);
        }
        store.putLastTxId(ITEMS, 2, pk(0), 999);
        store.releaseKeys(ITEMS, 1);

        assertThat(store.releaseSome(100)).isEqualTo(100);
        assertThat(store.releaseSome(100)).isEqualTo(100);
        assertThat(store.releaseSome(100)).isEqualTo(50);

        assertThat(store.hasPendingReleases()).isFalse();
        assertThat(keys.approximateNumEntries()).isEqualTo(1);
        assertThat(store.lastTxId(ITEMS, 2, pk(0))).hasValue(999);
    }

    @Test
    void unfinishedReleaseResumesAfterARestart() {
        KafkaMergeStore before = new KafkaMergeStore(state, keys);
        for (int id = 0; id < 10; id++) {
            before.putLastTxId(ITEMS, 3, pk(id), id);
        }
        before.releaseKeys(ITEMS, 3);
        before.releaseSome(4);

        KafkaMergeStore after = new KafkaMergeStore(state, keys);

        assertThat(after.hasPendingReleases()).isTrue();
        assertThat(after.releaseSome(100)).isEqualTo(6);
        assertThat(new KafkaMergeStore(state, keys).hasPendingReleases()).isFalse();
    }

    private static KeyValues pk(int id) {
        return KeyValues.of("[" + id + "]");
    }

    private static KeyValueStore<Bytes, byte[]> store(String name) {
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
            Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
