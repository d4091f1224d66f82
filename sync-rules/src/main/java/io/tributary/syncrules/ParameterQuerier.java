package io.tributary.syncrules;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.internals.eval.RowJsonParser;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The buckets one client may see, in two parts: those its request alone decides ({@link #staticBuckets()}) and
 * those that depend on stored parameter rows: the client's {@link #lookups()} are looked up at a checkpoint, and
 * {@link #buckets(Map)} turns what was found into bucket names. PowerSync's {@code BucketParameterQuerier}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ParameterQuerier {

    /**
     * Turns one stored parameter row found for a lookup into a bucket name, or none (a selected value that is no
     * bucket parameter, a request value that is missing).
     */
    @FunctionalInterface
    public interface Resolver {
        /** The bucket for {@code parameters} (a JSON object as in {@link ParameterRow#parameters()}), or null. */
        BucketParameters resolve(ObjectNode parameters);
    }

    private final List<BucketParameters> staticBuckets;
    private final Map<String, Resolver> lookups;
    private final List<String> order;

    /**
     * A querier with {@code staticBuckets} and, per lookup key, how its stored rows become buckets.
     *
     * @param staticBuckets the buckets the request alone decides, in rule order
     * @param lookups       lookup key to resolver, iterated in rule order (a {@code LinkedHashMap})
     */
    public ParameterQuerier(List<BucketParameters> staticBuckets, Map<String, Resolver> lookups) {
        this.staticBuckets = List.copyOf(staticBuckets);
        this.lookups = Map.copyOf(Objects.requireNonNull(lookups, "lookups"));
        this.order = List.copyOf(lookups.keySet());
    }

    /** The buckets that do not depend on stored parameter rows. */
    public List<BucketParameters> staticBuckets() {
        return staticBuckets;
    }

    /** Whether some buckets depend on stored parameter rows (there is at least one lookup). */
    public boolean hasDynamicBuckets() {
        return !order.isEmpty();
    }

    /** The lookup keys to read at a checkpoint, without duplicates, in rule order. */
    public List<String> lookups() {
        return order;
    }

    /**
     * Every bucket the client may see: the static ones, then those from the parameter rows found per lookup
     * ({@code found.apply(lookup)}: the {@link ParameterRow#parameters()} texts stored under it at the checkpoint),
     * without duplicates.
     */
    public List<BucketParameters> buckets(Function<String, List<String>> found) {
        Set<BucketParameters> result = new LinkedHashSet<>(staticBuckets);
        for (String lookup : order) {
            Resolver resolver = lookups.get(lookup);
            for (String parameters : found.apply(lookup)) {
                BucketParameters bucket = resolver.resolve(RowJsonParser.parseObject(parameters));
                if (bucket != null) {
                    result.add(bucket);
                }
            }
        }
        return new ArrayList<>(result);
    }

    /** As {@link #buckets(Function)} with the rows found given as a map (absent: none found). */
    public List<BucketParameters> buckets(Map<String, List<String>> found) {
        return buckets(lookup -> found.getOrDefault(lookup, List.of()));
    }
}
