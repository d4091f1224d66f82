package io.tributary.stream.merge;

import io.tributary.topics.messages.Lsn;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One snapshot window of a table as one partition has seen it. Immutable.
 *
 * @param windowId      the window
 * @param phase         where it stands
 * @param chunkCount    the planned chunk count, once its {@code TablePlan} arrived
 * @param doneChunks    distinct chunks of the window done in this partition, {@code >= 0}
 * @param highWatermark the highest high watermark of those chunks, present iff {@code doneChunks > 0}
 */
public record WindowState(String windowId, WindowPhase phase, OptionalInt chunkCount, int doneChunks,
                          Optional<Lsn> highWatermark) {

    public WindowState {
        Objects.requireNonNull(windowId, "windowId");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(chunkCount, "chunkCount");
        Objects.requireNonNull(highWatermark, "highWatermark");
        if (doneChunks < 0 || highWatermark.isPresent() != (doneChunks > 0)) {
            throw new IllegalArgumentException("Window " + windowId + ": " + doneChunks
                + " done chunks with high watermark " + highWatermark);
        }
    }

    /** A window first seen on {@code snapshot-rows}. */
    public static WindowState pending(String windowId) {
        return new WindowState(windowId, WindowPhase.PENDING, OptionalInt.empty(), 0, Optional.empty());
    }

    /** This window in phase {@code next}; see {@link WindowPhase#moveTo(WindowPhase)}. */
    public WindowState moveTo(WindowPhase next) {
        return new WindowState(windowId, phase.moveTo(next), chunkCount, doneChunks, highWatermark);
    }

    /** This window with its plan. */
    public WindowState withChunkCount(int count) {
        return new WindowState(windowId, phase, OptionalInt.of(count), doneChunks, highWatermark);
    }

    /** This window with one more chunk done, whose high watermark is {@code chunkHighWatermark}. */
    public WindowState withChunkDone(Lsn chunkHighWatermark) {
        Lsn max = highWatermark.map(hw -> Lsn.max(hw, chunkHighWatermark)).orElse(chunkHighWatermark);
        return new WindowState(windowId, phase, chunkCount, doneChunks + 1, Optional.of(max));
    }

    /** Whether the plan arrived and every planned chunk is done. */
    public boolean isComplete() {
        return chunkCount.isPresent() && doneChunks >= chunkCount.getAsInt();
    }
}
