package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.Lsn;
import java.util.Objects;

/**
 * The newest epoch every partition sealed, with what a checkpoint at it would publish.
 *
 * @param epoch the epoch
 * @param lsn   the epoch's barrier LSN (the smallest reported, should partitions disagree)
 * @param opId  the highest op id any partition had when it sealed the epoch
 */
public record EpochCandidate(long epoch, Lsn lsn, long opId) {

    public EpochCandidate {
        Objects.requireNonNull(lsn, "lsn");
        if (epoch < 0 || opId < 0) {
            throw new IllegalArgumentException("Invalid candidate: epoch " + epoch + ", op id " + opId);
        }
    }
}
