package io.tributary.topics.messages;

/**
 * Any value carried by a Tributary topic. Every message knows its record key; the codec turns both into bytes.
 *
 * <p>Each topic has its own sealed sub-interface listing exactly what it may carry ({@link ChangesMessage},
 * {@link SnapshotTaskMessage}, {@link SnapshotRowsMessage}, {@link RowsMessage}); consumers switch over those.
 * Orthogonally, a message is {@link RowKeyed} (routed by its key's hash), a {@link Marker} (sent to explicit
 * partitions, usually all of them) or a {@link ChunkTask} (routed within its priority's partition range).
 */
public sealed interface TopicMessage
    permits ChangesMessage, SnapshotTaskMessage, SnapshotRowsMessage, RowsMessage, RowKeyed, Marker {

    /**
     * The record key of this message when written to {@code partition}. Only markers depend on the partition; a
     * row-keyed message returns its {@link RowKey} and a chunk task its {@link TaskKey} for every partition.
     */
    RecordKey keyFor(int partition);
}
