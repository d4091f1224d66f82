package io.tributary.storage.progress;

import java.util.List;
import java.util.Objects;

/**
 * The chunks of one window, as the planner stores them.
 *
 * @param window        the window, which must be PLANNING
 * @param rowsEstimated the estimated rows of the table, {@code >= 0}
 * @param chunks        the chunks in index order, at least one
 */
public record WindowPlan(WindowKey window, long rowsEstimated, List<PlannedChunk> chunks) {

    public WindowPlan {
        Objects.requireNonNull(window, "window");
        chunks = List.copyOf(chunks);
        if (rowsEstimated < 0 || chunks.isEmpty()) {
            throw new IllegalArgumentException("A window plan needs rowsEstimated >= 0 and at least one chunk: "
                + window);
        }
        for (int i = 0; i < chunks.size(); i++) {
            if (chunks.get(i).index() != i) {
                throw new IllegalArgumentException("Chunks of " + window + " must be numbered 0.." + (chunks.size()
                    - 1) + " in order, found index " + chunks.get(i).index() + " at position " + i);
            }
        }
    }
}
