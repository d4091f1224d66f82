package io.tributary.topics.messages;

/**
 * A row version read by a snapshot chunk.
 *
 * @param chunkId the chunk that read it, non-empty
 * @param attempt the attempt of that chunk, {@code >= 1}
 */
public record SnapshotPosition(String chunkId, int attempt) implements SourcePosition {

    public SnapshotPosition {
        Checks.chunkId(chunkId);
        Checks.attempt(attempt);
    }

    /** The row read by attempt {@code attempt} of chunk {@code chunkId}. */
    public static SnapshotPosition of(String chunkId, int attempt) {
        return new SnapshotPosition(chunkId, attempt);
    }

    @Override
    public String toText() {
        return "c:" + attempt + ":" + chunkId;
    }

    @Override
    public String toString() {
        return toText();
    }
}
