package io.tributary.topics;

import java.util.ArrayList;
import java.util.List;

/**
 * The partitions {@code [first, end)} of one topic.
 *
 * @param first the first partition, {@code >= 0}
 * @param end   one past the last partition, {@code > first}
 */
public record PartitionRange(int first, int end) {

    public PartitionRange {
        if (first < 0 || end <= first) {
            throw new IllegalArgumentException("A partition range needs 0 <= first < end, got [" + first + ", "
                + end + ")");
        }
    }

    /** The partitions {@code [first, end)}. */
    public static PartitionRange of(int first, int end) {
        return new PartitionRange(first, end);
    }

    /** The number of partitions. */
    public int size() {
        return end - first;
    }

    /** Whether {@code partition} is in the range. */
    public boolean contains(int partition) {
        return partition >= first && partition < end;
    }

    /** The partition numbers, ascending. */
    public List<Integer> partitions() {
        List<Integer> partitions = new ArrayList<>(size());
        for (int p = first; p < end; p++) {
            partitions.add(p);
        }
        return partitions;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + end + ")";
    }
}
