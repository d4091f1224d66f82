package io.tributary.storage.progress;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of a chunk: {@code PLANNED -> ASSIGNED -> DONE}. A chunk is ASSIGNED again by every new attempt
 * ({@code ASSIGNED -> ASSIGNED}); any other transition is a bug and throws.
 */
public enum ChunkStatus {
    /** Stored by the planner; no worker claimed it yet. */
    PLANNED,
    /** Claimed by a worker: attempt {@code attempt} is reading it (or died doing so). */
    ASSIGNED,
    /** Read and published; rows and high watermark are recorded. */
    DONE;

    /** The states this one may move to. */
    public Set<ChunkStatus> next() {
        switch (this) {
            case PLANNED:
                return EnumSet.of(ASSIGNED);
            case ASSIGNED:
                return EnumSet.of(ASSIGNED, DONE);
            case DONE:
                return EnumSet.noneOf(ChunkStatus.class);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalStateException if {@code target} is not a legal next state
     */
    public void requireTransitionTo(ChunkStatus target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("Illegal chunk transition " + this + " -> " + target + " (legal: "
                + next() + ")");
        }
    }
}
