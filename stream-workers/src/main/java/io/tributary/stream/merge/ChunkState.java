package io.tributary.stream.merge;

import java.util.Objects;
import java.util.Optional;

/**
 * One snapshot chunk as one partition has seen it. Immutable.
 *
 * <p>A chunk is done in a partition once the done marker of an attempt at least as high as every attempt whose
 * rows were accepted arrived: every row that attempt read for this partition came before its marker, so the
 * chunk's content here is complete and later rows of any attempt are dropped.
 *
 * @param chunkId        the chunk
 * @param highestAttempt the highest attempt seen (rows or done marker), {@code >= 1}
 * @param done           whether the chunk is done in this partition
 * @param windowId       the chunk's window, once a done marker named it (snapshot rows do not carry it)
 */
public record ChunkState(String chunkId, int highestAttempt, boolean done, Optional<String> windowId) {

    public ChunkState {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(windowId, "windowId");
        if (highestAttempt < 1) {
            throw new IllegalArgumentException("Chunk " + chunkId + ": attempt must be >= 1, got " + highestAttempt);
        }
    }

    /** A chunk first seen at {@code attempt}. */
    public static ChunkState first(String chunkId, int attempt) {
        return new ChunkState(chunkId, attempt, false, Optional.empty());
    }

    /** This chunk with {@code attempt} as its highest attempt. */
    public ChunkState withAttempt(int attempt) {
        return new ChunkState(chunkId, Math.max(highestAttempt, attempt), done, windowId);
    }

    /** This chunk, known to belong to {@code window}. */
    public ChunkState withWindow(String window) {
        return new ChunkState(chunkId, highestAttempt, done, Optional.of(window));
    }

    /** This chunk done by {@code attempt} of window {@code window}. */
    public ChunkState doneBy(int attempt, String window) {
        return new ChunkState(chunkId, Math.max(highestAttempt, attempt), true, Optional.of(window));
    }
}
