package io.tributary.topics.messages;

/**
 * What the {@code snapshot-rows} topic carries: rows read by chunks, one to a record or several in a
 * {@link SnapshotRowBatch}, chunk-done markers (snapshot workers) and table plans (the planner).
 */
public sealed interface SnapshotRowsMessage extends TopicMessage
    permits SnapshotRow, SnapshotRowBatch, ChunkDone, TablePlan {
}
