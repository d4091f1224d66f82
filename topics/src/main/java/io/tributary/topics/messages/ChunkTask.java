package io.tributary.topics.messages;

import java.util.Objects;

/**
 * Read the primary key range {@code range} of {@code table}: one unit of snapshot work on {@code snapshot-tasks},
 * written by the planner into the partition range of its {@link TaskPriority}. A failed or abandoned chunk is
 * re-issued with {@link #nextAttempt()}; rows of a higher attempt supersede those of lower ones.
 *
 * <p>Chunk ids are stable across attempts and unique across windows (e.g. {@code <windowId>#<index>}).
 *
 * @param chunkId  the chunk's id, non-empty
 * @param table    the table to read
 * @param range    the primary key range {@code [lo, hi)} to read
 * @param attempt  the attempt number, {@code >= 1}
 * @param priority the queue the task waits in
 * @param windowId the snapshot window the chunk belongs to, non-empty
 */
public record ChunkTask(String chunkId, TableId table, ChunkRange range, int attempt, TaskPriority priority,
                        String windowId) implements SnapshotTaskMessage {

    public ChunkTask {
        Checks.chunkId(chunkId);
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(range, "range");
        Checks.attempt(attempt);
        Objects.requireNonNull(priority, "priority");
        Checks.windowId(windowId);
    }

    /** The first attempt of a chunk. */
    public static ChunkTask first(String chunkId, TableId table, ChunkRange range, TaskPriority priority,
                                  String windowId) {
        return new ChunkTask(chunkId, table, range, 1, priority, windowId);
    }

    /** The same chunk, one attempt later. */
    public ChunkTask nextAttempt() {
        return new ChunkTask(chunkId, table, range, attempt + 1, priority, windowId);
    }

    /** The same chunk as attempt {@code number} (claimed in storage, which hands out attempts). */
    public ChunkTask withAttempt(int number) {
        return new ChunkTask(chunkId, table, range, number, priority, windowId);
    }

    /** The same task in another queue (e.g. when its sync rules become active). */
    public ChunkTask withPriority(TaskPriority newPriority) {
        return new ChunkTask(chunkId, table, range, attempt, newPriority, windowId);
    }

    /** The record key: the chunk id. */
    public TaskKey taskKey() {
        return new TaskKey(chunkId);
    }

    @Override
    public RecordKey keyFor(int partition) {
        return taskKey();
    }
}
