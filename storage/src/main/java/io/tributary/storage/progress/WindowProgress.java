package io.tributary.storage.progress;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot window as stored: what the status command shows per table ({@code rows done / ~estimated}).
 *
 * @param window        the table and window
 * @param state         where the window is in its lifecycle
 * @param priority      the queue its tasks wait in
 * @param chunksPlanned chunks stored ({@code 0} while planning)
 * @param chunksDone    chunks done
 * @param rowsDone      rows read by done chunks
 * @param rowsEstimated the planner's estimate of the table's rows
 * @param highWatermark the highest high watermark of the done chunks (LSN text), if any
 * @param error         why the window failed, iff FAILED
 * @param startedAt     when the window was opened
 * @param finishedAt    when it became DONE or FAILED
 */
public record WindowProgress(WindowKey window, WindowStatus state, SnapshotPriority priority, int chunksPlanned,
                             int chunksDone, long rowsDone, long rowsEstimated, Optional<String> highWatermark,
                             Optional<String> error, Instant startedAt, Optional<Instant> finishedAt) {

    public WindowProgress {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(highWatermark, "highWatermark");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        if (chunksPlanned < 0 || chunksDone < 0 || rowsDone < 0 || rowsEstimated < 0) {
            throw new IllegalArgumentException("Progress counts must be >= 0 for " + window);
        }
        if ((state == WindowStatus.FAILED) != error.isPresent()) {
            throw new IllegalArgumentException("A window has an error iff it FAILED: " + window + " " + state);
        }
    }

    /**
     * Whether the window FAILED the moment it was opened ({@link SnapshotProgress#recordFailure}: the table could
     * not be described, e.g. it has no key or a column of an unsupported type), rather than while it was planned
     * or read.
     */
    public boolean failedBeforePlanning() {
        return state == WindowStatus.FAILED && chunksPlanned == 0 && finishedAt.equals(Optional.of(startedAt));
    }

    /** {@code rowsDone/~rowsEstimated}, e.g. {@code 5480000/~7880678}. */
    public String rowsText() {
        return rowsDone + "/~" + rowsEstimated;
    }
}
