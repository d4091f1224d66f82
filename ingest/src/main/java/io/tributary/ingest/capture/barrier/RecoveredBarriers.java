package io.tributary.ingest.capture.barrier;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The newest barriers ingest finds when it (re)starts: in each partition of {@code changes}, and the one stored in
 * {@code ingest-offsets} ({@link StoredBarrier}), which outlives {@code changes}' retention; and the highest commit
 * LSN of any message written after them. A previous run commits changes between its barriers, so when it stops,
 * {@code changes} may hold transactions above its newest barrier's LSN: the next run's barriers must cover them.
 *
 * @param partitions       the partition count
 * @param newest           per partition, its newest barrier (absent: none found)
 * @param stored           the newest barrier known outside {@code changes}, if any: stored beside the offsets, or
 *                         sealed by the storage writers ({@link #withSealed})
 * @param highestCommitted the highest commit LSN of a change, truncation or window marker read after the newest
 *                         barrier of a partition, or of the position the engine's stored offsets resume after,
 *                         {@link Lsn#ZERO} if none
 */
public record RecoveredBarriers(int partitions, Map<Integer, Barrier> newest, Optional<Barrier> stored,
                                Lsn highestCommitted) {

    public RecoveredBarriers {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        newest = Map.copyOf(newest);
        Objects.requireNonNull(stored, "stored");
        Objects.requireNonNull(highestCommitted, "highestCommitted");
    }

    /** Barriers found in {@code changes} and stored, with no message after them. */
    public RecoveredBarriers(int partitions, Map<Integer, Barrier> newest, Optional<Barrier> stored) {
        this(partitions, newest, stored, Lsn.ZERO);
    }

    /** Barriers found in {@code changes} only, with no message after them. */
    public RecoveredBarriers(int partitions, Map<Integer, Barrier> newest) {
        this(partitions, newest, Optional.empty());
    }

    /**
     * These barriers with {@code sealed}, the highest barrier the storage writers sealed, as the stored one when its
     * epoch is higher: Kafka can lose both the barriers in {@code changes} and the stored one, and the next barriers
     * must still pass every sealed epoch.
     */
    public RecoveredBarriers withSealed(Optional<Barrier> sealed) {
        Optional<Barrier> known = Stream.concat(stored.stream(), sealed.stream())
            .max((a, b) -> Long.compare(a.epoch(), b.epoch()));
        return new RecoveredBarriers(partitions, newest, known, highestCommitted);
    }

    /** The barrier with the highest epoch in any partition or stored. */
    public Optional<Barrier> latest() {
        return Stream.concat(newest.values().stream(), stored.stream())
            .max((a, b) -> Long.compare(a.epoch(), b.epoch()));
    }

    /**
     * The position the next barrier must cover at least: the highest LSN of any barrier found or stored, or of any
     * message committed after them ({@link #highestCommitted()}); {@link Lsn#ZERO} if none.
     */
    public Lsn highestLsn() {
        Lsn highest = Lsn.max(highestCommitted, stored.map(Barrier::lsn).orElse(Lsn.ZERO));
        for (Barrier barrier : newest.values()) {
            highest = Lsn.max(highest, barrier.lsn());
        }
        return highest;
    }

    /**
     * The partitions whose newest barrier is older than {@link #latest()}: a previous instance stopped while it
     * was writing that barrier to every partition, or retention removed a partition's barriers.
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
