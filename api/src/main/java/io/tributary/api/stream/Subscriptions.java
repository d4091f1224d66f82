package io.tributary.api.stream;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The buckets the open streams of a process hold, each with the number of streams holding it: what a
 * {@link CheckpointDelta} reads. A stream adds its bucket set when it learns it and removes it when the set changes or
 * the stream ends.
 *
 * <p>Thread-safe.
 */
final class Subscriptions {

    private final Map<String, Integer> holders = new ConcurrentHashMap<>();

    /** Adds one holder to each of {@code buckets}. */
    void add(Collection<String> buckets) {
        for (String bucket : buckets) {
            holders.merge(bucket, 1, Integer::sum);
        }
    }

    /** Removes one holder from each of {@code buckets}; a bucket nobody holds is forgotten. */
    void remove(Collection<String> buckets) {
        for (String bucket : buckets) {
            holders.computeIfPresent(bucket, (b, n) -> n == 1 ? null : n - 1);
        }
    }

    /** The buckets held now, in no particular order. */
    List<String> buckets() {
        return new ArrayList<>(holders.keySet());
    }
}
