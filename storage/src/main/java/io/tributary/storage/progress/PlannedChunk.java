package io.tributary.storage.progress;

import java.util.Objects;
import java.util.Optional;

/**
 * A chunk as the planner stores it: the key range {@code [lo, hi)} as canonical JSON arrays, absent = unbounded.
 *
 * @param chunkId the chunk id, unique across windows (e.g. {@code <windowId>#<index>})
 * @param index   its position in the window, {@code >= 0}
 * @param lo      the inclusive lower bound, or empty
 * @param hi      the exclusive upper bound, or empty
 */
public record PlannedChunk(String chunkId, int index, Optional<String> lo, Optional<String> hi) {

    public PlannedChunk {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(lo, "lo");
        Objects.requireNonNull(hi, "hi");
        if (chunkId.isEmpty() || index < 0) {
            throw new IllegalArgumentException("A chunk needs an id and an index >= 0, got '" + chunkId + "', "
                + index);
        }
    }
}
