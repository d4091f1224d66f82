package io.tributary.syncrules;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every non-empty bucket of a sync rules version over a set of source rows, sorted by bucket name, plus what
 * could not be evaluated.
 *
 * @param buckets the buckets by name (sorted)
 * @param errors  evaluation errors and row id collisions, in input order
 */
public record ExpectedBuckets(SortedMap<String, ExpectedBucket> buckets, List<EvaluationError> errors) {

    public ExpectedBuckets {
        buckets = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(buckets, "buckets")));
        errors = List.copyOf(errors);
    }

    /** The bucket named {@code bucket}, if it holds any row. */
    public Optional<ExpectedBucket> bucket(String bucket) {
        return Optional.ofNullable(buckets.get(bucket));
    }

    /** The total number of rows over all buckets (a row in two buckets counts twice). */
    public long totalRows() {
        return buckets.values().stream().mapToLong(ExpectedBucket::count).sum();
    }
}
