package io.tributary.topics.messages;

/** What the {@code snapshot-tasks} topic carries: chunk tasks, written by the planner. */
public sealed interface SnapshotTaskMessage extends TopicMessage permits ChunkTask {
}
