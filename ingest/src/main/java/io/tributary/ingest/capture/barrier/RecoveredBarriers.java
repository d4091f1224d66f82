package io.tributary.ingest.capture.barrier;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newest barrier found in each partition of {@code changes} when ingest (re)starts.
 *
 * @param partitions the partition count
 * @param newest     per partition, its newest barrier (absent: none found)
 */
public record RecoveredBarriers(int partitions, Map<Integer, Barrier> newest) {

    public RecoveredBarriers {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        newest = Map.copyOf(newest);
    }

    /** The barrier with the highest epoch in any partition. */
    public Optional<Barrier> latest() {
        return newest.values().stream().max((a, b) -> Long.compare(a.epoch(), b.epoch()));
    }

    /** The highest LSN of any barrier, {@link Lsn#ZERO} if none. */
    public Lsn highestLsn() {
        Lsn highest = Lsn.ZERO;
        for (Barrier barrier : newest.values()) {
            highest = Lsn.max(highest, barrier.lsn());
        }
        return highest;
    }

    /**
     * The partitions whose newest barrier is older than {@link #latest()}: a previous instance stopped while it
     * was writing that barrier to every partition.
     */
    public List<Integer> partitionsBehind() {
        List<Integer> behind = new ArrayList<>();
        Optional<Barrier> latest = latest();
        if (latest.isEmpty()) {
            return behind;
        }
        for (int p = 0; p < partitions; p++) {
            Barrier barrier = newest.get(p);
            if (barrier == null || barrier.epoch() < latest.get().epoch()) {
                behind.add(p);
            }
        }
        return behind;
    }
}
