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
 * @param windowId       the chunk's window (absent only in states written before snapshot rows carried their
 *                       window, which a done marker of the chunk then named)
 */
public record ChunkState(String chunkId, int highestAttempt, boolean done, Optional<String> windowId) {

    public ChunkState {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(windowId, "windowId");
        if (highestAttempt < 1) {
            throw new IllegalArgumentException("Chunk " + chunkId + ": attempt must be >= 1, got " + highestAttempt);
        }
    }

    /** A chunk of window {@code windowId} first seen at {@code attempt}. */
    public static ChunkState first(String chunkId, String windowId, int attempt) {
        return new ChunkState(chunkId, attempt, false, Optional.of(windowId));
    }

    /** Whether the chunk is known to belong to a window other than {@code window}. */
    public boolean belongsToOtherWindowThan(String window) {
        return windowId.isPresent() && !windowId.get().equals(window);
    }

    /** This chunk with {@code attempt} as its highest attempt. */
    public ChunkState withAttempt(int attempt) {
        return new ChunkState(chunkId, Math.max(highestAttempt, attempt), done, windowId);
    }

    /** This chunk done by {@code attempt} of window {@code window}. */
    public ChunkState doneBy(int attempt, String window) {
        return new ChunkState(chunkId, Math.max(highestAttempt, attempt), true, Optional.of(window));
    }
}
