package io.tributary.snapshot;

import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;

/**
 * Hears what the workers do, e.g. for metrics. Called from the worker loops' threads, concurrently: implementations
 * must be thread-safe and quick (a slow listener slows the loop that calls it). Every method has an empty default.
 */
public interface ChunkListener {

    /** A listener that ignores everything. */
    ChunkListener NONE = new ChunkListener() {
    };

    /** Attempt {@code task.attempt()} of a chunk claimed in storage; its read starts now. */
    default void chunkStarted(ChunkTask task) {
    }

    /** The read of {@code task} has handed {@code rows} rows to the producer so far (called per fetch). */
    default void rowsRead(ChunkTask task, long rows) {
    }

    /** {@code task} is published, acknowledged by Kafka and DONE in storage. */
    default void chunkDone(ChunkTask task, long rows, Lsn highWatermark) {
    }

    /** A task was skipped: its chunk is DONE already, or its window is no longer open. */
    default void chunkSkipped(ChunkTask task) {
    }

    /** A permanent error failed {@code table}'s window; its remaining chunks are skipped. */
    default void tableFailed(TableId table, String windowId, String error) {
    }
}
