package io.tributary.topics.messages;

/**
 * The key of a chunk task on {@code snapshot-tasks}: its chunk id, so every attempt of a chunk is keyed alike.
 *
 * @param chunkId the chunk id, non-empty
 */
public record TaskKey(String chunkId) implements RecordKey {

    public TaskKey {
        Checks.chunkId(chunkId);
    }

    /** The key of the tasks of chunk {@code chunkId}. */
    public static TaskKey of(String chunkId) {
        return new TaskKey(chunkId);
    }

    @Override
    public String toString() {
        return chunkId;
    }
}
