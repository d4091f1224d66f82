package io.tributary.storage.progress;

import java.util.Objects;
import java.util.Optional;

/**
 * A chunk as stored.
 *
 * @param window   the window it belongs to
 * @param chunk    its id, index and range
 * @param state    where it is in its lifecycle
 * @param attempt  the attempts claimed so far ({@code 0} before the first)
 * @param priority the queue its task waits in
 */
public record StoredChunk(WindowKey window, PlannedChunk chunk, ChunkStatus state, int attempt,
                          SnapshotPriority priority) {

    public StoredChunk {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(priority, "priority");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0, got " + attempt);
        }
    }

    /** The chunk id. */
    public String chunkId() {
        return chunk.chunkId();
    }

    /** The inclusive lower bound, or empty for unbounded. */
    public Optional<String> lo() {
        return chunk.lo();
    }

    /** The exclusive upper bound, or empty for unbounded. */
    public Optional<String> hi() {
        return chunk.hi();
    }
}
