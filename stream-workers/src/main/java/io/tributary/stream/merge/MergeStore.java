package io.tributary.stream.merge;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The state of the merge of one partition, read and written by {@link MergeRules}. Implementations decide where
 * it lives: {@link InMemoryMergeStore} for tests, a changelogged RocksDB store in the Kafka Streams topology.
 *
 * <p>Not thread-safe: one partition's merge is driven by one thread at a time. Reads see every earlier write.
 */
public interface MergeStore {

    /** The partition-wide state ({@link PartitionState#initial()} before the first write). */
    PartitionState partition();

    /** Replaces the partition-wide state. */
    void putPartition(PartitionState state);

    /** The state of {@code table}, if the partition has seen a window or chunk of it. */
    Optional<TableState> table(TableId table);

    /** Replaces the state of {@code state.table()}. */
    void putTable(TableState state);

    /** The state of chunk {@code chunkId} of {@code table}, if seen. */
    Optional<ChunkState> chunk(TableId table, String chunkId);

    /** Replaces the state of chunk {@code state.chunkId()} of {@code table}. */
    void putChunk(TableId table, ChunkState state);

    /**
     * Deletes the state of every chunk of {@code table} that belongs to window {@code windowId}, once that window
     * closed: the merge drops its late rows and markers by their window from then on.
     */
    void releaseChunks(TableId table, String windowId);

    /** The transaction id of the last stream event emitted for key {@code pk} of {@code table} in a generation. */
    OptionalLong lastTxId(TableId table, long generation, KeyValues pk);

    /** Remembers {@code txId} as the last stream transaction of key {@code pk} of {@code table} in a generation. */
    void putLastTxId(TableId table, long generation, KeyValues pk, long txId);

    /**
     * Frees every key of {@code table} remembered in {@code generation}. The merge never reads that generation
     * again, so an implementation may free lazily, in bounded steps.
     */
    void releaseKeys(TableId table, long generation);
}
