package io.tributary.stream.merge;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.StreamPosition;
import java.util.Objects;
import java.util.Optional;

/**
 * What the merge of one partition remembers about the {@code changes} stream as a whole: the high-water mark of
 * the stream positions it has passed on, and the last barrier it forwarded. Immutable.
 *
 * @param highWater   the highest {@code (commit LSN, seq)} of a change event or truncation passed on, if any
 * @param lastBarrier the last barrier forwarded, if any
 */
public record PartitionState(Optional<StreamPosition> highWater, Optional<Barrier> lastBarrier) {

    private static final PartitionState INITIAL = new PartitionState(Optional.empty(), Optional.empty());

    public PartitionState {
        Objects.requireNonNull(highWater, "highWater");
        Objects.requireNonNull(lastBarrier, "lastBarrier");
    }

    /** The state of a partition that has seen nothing. */
    public static PartitionState initial() {
        return INITIAL;
    }

    /**
     * Whether a stream event at {@code position} was already passed on: a restarted ingest re-sends events with
     * their original positions, and positions of distinct events are distinct and increasing per partition.
     */
    public boolean isDuplicate(StreamPosition position) {
        return highWater.isPresent() && position.compareTo(highWater.get()) <= 0;
    }

    /** This state with {@code position} as the high-water mark. */
    public PartitionState withHighWater(StreamPosition position) {
        return new PartitionState(Optional.of(position), lastBarrier);
    }

    /**
     * Whether {@code barrier} is a re-send of one already forwarded: neither its epoch nor its LSN is after the
     * last forwarded barrier's. (A barrier with a higher LSN is forwarded even if its epoch is not higher, so a
     * reset epoch counter cannot stall checkpoints.)
     */
    public boolean isStale(Barrier barrier) {
        return lastBarrier.isPresent() && barrier.epoch() <= lastBarrier.get().epoch()
            && !barrier.lsn().isAfter(lastBarrier.get().lsn());
    }

    /** This state with {@code barrier} as the last barrier forwarded. */
    public PartitionState withBarrier(Barrier barrier) {
        return new PartitionState(highWater, Optional.of(barrier));
    }
}
