package io.tributary.topics.messages;

import java.util.Objects;
import java.util.Optional;

/**
 * A primary key range {@code [lo, hi)} of one chunk: start inclusive, end exclusive, an absent bound is
 * unbounded on that side. Bounds compare in the table's primary key order (the source module's business; this
 * record only carries them). A range with equal bounds would be empty and is rejected.
 *
 * @param lo the inclusive lower bound, or empty for "from the first key"
 * @param hi the exclusive upper bound, or empty for "to the last key"
 */
public record ChunkRange(Optional<KeyValues> lo, Optional<KeyValues> hi) {

    private static final ChunkRange ALL = new ChunkRange(Optional.empty(), Optional.empty());

    public ChunkRange {
        Objects.requireNonNull(lo, "lo");
        Objects.requireNonNull(hi, "hi");
        if (lo.isPresent() && lo.equals(hi)) {
            throw new IllegalArgumentException("A chunk range needs lo != hi, both are " + lo.get());
        }
    }

    /** The whole table. */
    public static ChunkRange all() {
        return ALL;
    }

    /** Keys in {@code [lo, hi)}. */
    public static ChunkRange of(KeyValues lo, KeyValues hi) {
        return new ChunkRange(Optional.of(lo), Optional.of(hi));
    }

    /** Keys from {@code lo} (inclusive) to the end of the table. */
    public static ChunkRange from(KeyValues lo) {
        return new ChunkRange(Optional.of(lo), Optional.empty());
    }

    /** Keys from the start of the table to {@code hi} (exclusive). */
    public static ChunkRange until(KeyValues hi) {
        return new ChunkRange(Optional.empty(), Optional.of(hi));
    }

    /** Whether both sides are unbounded. */
    public boolean isAll() {
        return lo.isEmpty() && hi.isEmpty();
    }

    /** {@code [lo, hi)} with {@code -inf} / {@code +inf} for absent bounds. */
    @Override
    public String toString() {
        return "[" + lo.map(KeyValues::json).orElse("-inf") + ", " + hi.map(KeyValues::json).orElse("+inf") + ")";
    }
}
