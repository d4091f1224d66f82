package io.tributary.stream.internals;

import io.tributary.stream.merge.ChunkState;
import io.tributary.stream.merge.MergeStore;
import io.tributary.stream.merge.PartitionState;
import io.tributary.stream.merge.TableState;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiPredicate;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link MergeStore} of one Kafka Streams task, over two persistent key-value stores (RocksDB, backed by
 * changelog topics): {@code state} for partition, table and chunk states, {@code keys} for the per-key
 * transaction ids. Memory stays bounded however many keys are tracked: RocksDB keeps them on disk, Kafka Streams'
 * record cache holds a bounded number of recent entries. After a crash Kafka Streams restores both stores from
 * their changelogs (or the local checkpoint), transactionally consistent with the consumed offsets under
 * exactly-once.
 *
 * <p>{@link #releaseKeys} is lazy: it records a release marker and {@link #releaseSome(int)} deletes the keys in
 * bounded steps (a 10M-key table would not fit in one transaction), resuming from the markers after a restart.
 * The merge never reads a released generation again, so the pace of deletion is invisible to it.
 *
 * <p>Decoded partition, table and chunk states are cached in memory; the cache lives as long as this object, which
 * the processor creates in {@code init} (so a task re-initialized after a failure starts from its restored stores).
 * So is, per tracked table generation, whether it has any key at all: while a snapshot runs on a table no stream
 * event touches, every snapshot row would otherwise look its key up in vain (a record cache miss and a RocksDB
 * read per row). The first lookup of a generation probes the store once; every key put afterwards goes through
 * this object.
 *
 * <p>Not thread-safe: used by its task's stream thread only.
 */
public final class KafkaMergeStore implements MergeStore {

    /** Decoded table states kept in memory (the store stays the truth; the cache is dropped when full). */
    private static final int MAX_CACHED_TABLES = 10_000;
    /** Decoded chunk states kept in memory, likewise (every snapshot row reads its chunk's state). */
    private static final int MAX_CACHED_CHUNKS = 10_000;

    /** Generations whose key presence is kept in memory, likewise. */
    private static final int MAX_CACHED_GENERATIONS = 10_000;

    private record Generation(TableId table, long generation) {
    }

    private final KeyValueStore<Bytes, byte[]> state;
    private final KeyValueStore<Bytes, byte[]> keys;
    private final Deque<StoreKeys.Release> releases = new ArrayDeque<>();
    private final Deque<StoreKeys.ChunkRef> staleChunks = new ArrayDeque<>();
    private final Map<TableId, Optional<TableState>> tables = new HashMap<>();
    private final Map<StoreKeys.ChunkRef, Optional<ChunkState>> chunks = new HashMap<>();
    private final Map<Generation, Boolean> generationHasKeys = new HashMap<>();
    private Optional<PartitionState> partition = Optional.empty();
    private Optional<Bytes> releaseCursor = Optional.empty();

    /**
     * A store over {@code state} and {@code keys}; picks up releases left unfinished by an earlier run, and queues
     * for release the chunk states of closed windows that older releases kept. It only reads: deletes come with
     * {@link #releaseSome}, while records are processed.
     */
    public KafkaMergeStore(KeyValueStore<Bytes, byte[]> state, KeyValueStore<Bytes, byte[]> keys) {
        this.state = Objects.requireNonNull(state, "state");
        this.keys = Objects.requireNonNull(keys, "keys");
        try (KeyValueIterator<Bytes, byte[]> pending =
                 state.prefixScan(StoreKeys.releasePrefix(), Serdes.Bytes().serializer())) {
            pending.forEachRemaining(entry -> releases.add(StoreKeys.parseRelease(entry.key)));
        }
        staleChunks.addAll(chunksOfClosedWindows());
    }

    @Override
    public PartitionState partition() {
        if (partition.isEmpty()) {
            byte[] bytes = state.get(StoreKeys.partition());
            partition = Optional.of(bytes == null ? PartitionState.initial() : StateCodec.decodePartition(bytes));
        }
        return partition.get();
    }

    @Override
    public void putPartition(PartitionState next) {
        state.put(StoreKeys.partition(), StateCodec.encode(next));
        partition = Optional.of(next);
    }

    @Override
    public Optional<TableState> table(TableId table) {
        Optional<TableState> cached = tables.get(table);
        if (cached != null) {
            return cached;
        }
        byte[] bytes = state.get(StoreKeys.table(table));
        Optional<TableState> found = bytes == null
            ? Optional.empty() : Optional.of(StateCodec.decodeTable(table, bytes));
        remember(table, found);
        return found;
    }

    @Override
    public void putTable(TableState table) {
        state.put(StoreKeys.table(table.table()), StateCodec.encode(table));
        remember(table.table(), Optional.of(table));
    }

    private void remember(TableId table, Optional<TableState> found) {
        if (tables.size() >= MAX_CACHED_TABLES && !tables.containsKey(table)) {
            tables.clear();
        }
        tables.put(table, found);
    }

    @Override
    public Optional<ChunkState> chunk(TableId table, String chunkId) {
        StoreKeys.ChunkRef key = new StoreKeys.ChunkRef(table, chunkId);
        Optional<ChunkState> cached = chunks.get(key);
        if (cached != null) {
            return cached;
        }
        byte[] bytes = state.get(StoreKeys.chunk(table, chunkId));
        Optional<ChunkState> found = bytes == null
            ? Optional.empty() : Optional.of(StateCodec.decodeChunk(chunkId, bytes));
        remember(key, found);
        return found;
    }

    @Override
    public void putChunk(TableId table, ChunkState chunk) {
        state.put(StoreKeys.chunk(table, chunk.chunkId()), StateCodec.encode(chunk));
        remember(new StoreKeys.ChunkRef(table, chunk.chunkId()), Optional.of(chunk));
    }

    @Override
    public void releaseChunks(TableId table, String windowId) {
        chunksUnder(StoreKeys.chunkPrefix(table), (ref, chunk) -> chunk.windowId().equals(Optional.of(windowId)))
            .forEach(this::deleteChunk);
    }

    /** The chunks whose window is closed (older releases never deleted chunk states). */
    private List<StoreKeys.ChunkRef> chunksOfClosedWindows() {
        return chunksUnder(StoreKeys.chunkPrefix(), (ref, chunk) -> chunk.windowId().isPresent()
            && table(ref.table()).map(t -> t.isClosed(chunk.windowId().get())).orElse(false));
    }

    /** The chunks with a state under {@code prefix} that are {@code matching}. */
    private List<StoreKeys.ChunkRef> chunksUnder(Bytes prefix, BiPredicate<StoreKeys.ChunkRef, ChunkState> matching) {
        List<StoreKeys.ChunkRef> found = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> all = state.prefixScan(prefix, Serdes.Bytes().serializer())) {
            while (all.hasNext()) {
                KeyValue<Bytes, byte[]> entry = all.next();
                StoreKeys.ChunkRef ref = StoreKeys.parseChunk(entry.key);
                if (matching.test(ref, StateCodec.decodeChunk(ref.chunkId(), entry.value))) {
                    found.add(ref);
                }
            }
        }
        return found;
    }

    private void deleteChunk(StoreKeys.ChunkRef chunk) {
        state.delete(StoreKeys.chunk(chunk.table(), chunk.chunkId()));
        chunks.remove(chunk);
    }

    private void remember(StoreKeys.ChunkRef key, Optional<ChunkState> found) {
        if (chunks.size() >= MAX_CACHED_CHUNKS && !chunks.containsKey(key)) {
            chunks.clear();
        }
        chunks.put(key, found);
    }

    @Override
    public OptionalLong lastTxId(TableId table, long generation, KeyValues pk) {
        if (!hasKeys(new Generation(table, generation))) {
            return OptionalLong.empty();
        }
        byte[] bytes = keys.get(StoreKeys.key(table, generation, pk));
        return bytes == null ? OptionalLong.empty() : OptionalLong.of(StateCodec.decodeTxId(bytes));
    }

    @Override
    public void putLastTxId(TableId table, long generation, KeyValues pk, long txId) {
        keys.put(StoreKeys.key(table, generation, pk), StateCodec.encodeTxId(txId));
        Generation key = new Generation(table, generation);
        if (!Boolean.TRUE.equals(generationHasKeys.get(key))) {
            rememberKeys(key, true);
        }
    }

    private boolean hasKeys(Generation generation) {
        Boolean known = generationHasKeys.get(generation);
        if (known != null) {
            return known;
        }
        boolean found;
        try (KeyValueIterator<Bytes, byte[]> range = keys.range(
                 StoreKeys.keyRangeStart(generation.table(), generation.generation()),
                 StoreKeys.keyRangeEnd(generation.table(), generation.generation()))) {
            found = range.hasNext();
        }
        rememberKeys(generation, found);
        return found;
    }

    private void rememberKeys(Generation generation, boolean present) {
        if (generationHasKeys.size() >= MAX_CACHED_GENERATIONS && !generationHasKeys.containsKey(generation)) {
            generationHasKeys.clear();
        }
        generationHasKeys.put(generation, present);
    }

    @Override
    public void releaseKeys(TableId table, long generation) {
        state.put(StoreKeys.release(table, generation), new byte[0]);
        releases.add(new StoreKeys.Release(table, generation));
    }

    /** Whether released keys or chunk states remain to be deleted. */
    public boolean hasPendingReleases() {
        return !releases.isEmpty() || !staleChunks.isEmpty();
    }

    /**
     * Deletes up to {@code budget} entries: first the chunk states of closed windows found when the store opened,
     * then keys of released generations, oldest release first.
     *
     * @return how many entries were deleted
     */
    public int releaseSome(int budget) {
        int deleted = 0;
        while (deleted < budget && !staleChunks.isEmpty()) {
            deleteChunk(staleChunks.poll());
            deleted++;
        }
        while (deleted < budget && !releases.isEmpty()) {
            StoreKeys.Release release = releases.peek();
            int room = budget - deleted;
            List<Bytes> batch = new ArrayList<>(Math.min(room, 1024));
            Bytes from = releaseCursor.orElse(StoreKeys.keyRangeStart(release.table(), release.generation()));
            Bytes to = StoreKeys.keyRangeEnd(release.table(), release.generation());
            try (KeyValueIterator<Bytes, byte[]> range = keys.range(from, to)) {
                while (batch.size() < room && range.hasNext()) {
                    KeyValue<Bytes, byte[]> entry = range.next();
                    batch.add(entry.key);
                }
            }
            batch.forEach(keys::delete);
            deleted += batch.size();
            if (batch.size() < room) {
                state.delete(StoreKeys.release(release.table(), release.generation()));
                releases.poll();
                releaseCursor = Optional.empty();
            } else {
                releaseCursor = Optional.of(batch.get(batch.size() - 1));
            }
        }
        return deleted;
    }
}
