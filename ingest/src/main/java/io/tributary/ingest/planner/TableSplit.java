package io.tributary.ingest.planner;

import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.KeyValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How one table is cut: consecutive primary key ranges covering every key exactly once ({@code [-inf, b1)},
 * {@code [b1, b2)}, ..., {@code [bn, +inf)}; a single {@link ChunkRange#all()} for a small table), plus the row
 * estimate they were sized by.
 *
 * @param rowsEstimated the estimated rows of the table, {@code >= 0}
 * @param ranges        the chunk ranges in key order, at least one
 */
public record TableSplit(long rowsEstimated, List<ChunkRange> ranges) {

    public TableSplit {
        ranges = List.copyOf(ranges);
        if (rowsEstimated < 0 || ranges.isEmpty()) {
            throw new IllegalArgumentException("A split needs rowsEstimated >= 0 and at least one range");
        }
        for (int i = 0; i < ranges.size(); i++) {
            ChunkRange range = ranges.get(i);
            boolean first = i == 0;
            boolean last = i == ranges.size() - 1;
            if (range.lo().isPresent() == first || range.hi().isPresent() == last) {
                throw new IllegalArgumentException("Ranges must start and end unbounded, bounded in between: "
                    + ranges);
            }
            if (!first && !range.lo().equals(ranges.get(i - 1).hi())) {
                throw new IllegalArgumentException("Range " + i + " must start where range " + (i - 1) + " ends: "
                    + ranges);
            }
        }
    }

    /** The whole table as one chunk. */
    public static TableSplit single(long rowsEstimated) {
        return new TableSplit(rowsEstimated, List.of(ChunkRange.all()));
    }

    /** Ranges cut at {@code boundaries} (ascending, distinct canonical key arrays). */
    public static TableSplit at(long rowsEstimated, List<KeyValues> boundaries) {
        List<ChunkRange> ranges = new ArrayList<>();
        Optional<KeyValues> lo = Optional.empty();
        for (KeyValues boundary : boundaries) {
            ranges.add(new ChunkRange(lo, Optional.of(boundary)));
            lo = Optional.of(boundary);
        }
        ranges.add(new ChunkRange(lo, Optional.empty()));
        return new TableSplit(rowsEstimated, ranges);
    }
}
