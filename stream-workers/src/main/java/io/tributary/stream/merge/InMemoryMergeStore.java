package io.tributary.stream.merge;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link MergeStore} in plain maps, for tests and tools. Frees keys at once. Not thread-safe.
 */
public final class InMemoryMergeStore implements MergeStore {

    private record ChunkRef(TableId table, String chunkId) {
    }

    private record KeyRef(TableId table, long generation, KeyValues pk) {
    }

    private PartitionState partition = PartitionState.initial();
    private final Map<TableId, TableState> tables = new HashMap<>();
    private final Map<ChunkRef, ChunkState> chunks = new HashMap<>();
    private final Map<KeyRef, Long> keys = new HashMap<>();

    @Override
    public PartitionState partition() {
        return partition;
    }

    @Override
    public void putPartition(PartitionState state) {
        partition = state;
    }

    @Override
    public Optional<TableState> table(TableId table) {
        return Optional.ofNullable(tables.get(table));
    }

    @Override
    public void putTable(TableState state) {
        tables.put(state.table(), state);
    }

    @Override
    public Optional<ChunkState> chunk(TableId table, String chunkId) {
        return Optional.ofNullable(chunks.get(new ChunkRef(table, chunkId)));
    }

    @Override
    public void putChunk(TableId table, ChunkState state) {
        chunks.put(new ChunkRef(table, state.chunkId()), state);
    }

    @Override
    public void releaseChunks(TableId table, String windowId) {
        chunks.entrySet().removeIf(e -> e.getKey().table().equals(table)
            && e.getValue().windowId().equals(Optional.of(windowId)));
    }

    /** How many chunk states are kept, over all tables. */
    public int chunkCount() {
        return chunks.size();
    }

    @Override
    public OptionalLong lastTxId(TableId table, long generation, KeyValues pk) {
        Long txId = keys.get(new KeyRef(table, generation, pk));
        return txId == null ? OptionalLong.empty() : OptionalLong.of(txId);
    }

    @Override
    public void putLastTxId(TableId table, long generation, KeyValues pk, long txId) {
        keys.put(new KeyRef(table, generation, pk), txId);
    }

    @Override
    public void releaseKeys(TableId table, long generation) {
        keys.keySet().removeIf(k -> k.table().equals(table) && k.generation() == generation);
    }

    /** How many per-key entries are kept, over all tables and generations. */
    public int keyCount() {
        return keys.size();
    }
}
