package io.tributary.api.stream;

import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.RequestContext;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which buckets a client sees at a checkpoint: those its request alone decides, plus those its parameter queries
 * with FROM find among the parameter lookups stored at that checkpoint (PowerSync's bucket parameter querier),
 * read through the process's {@link LookupCache}. A session asks at every checkpoint it serves, so a membership
 * change that the checkpoint covers adds or removes buckets in the next {@code checkpoint_diff}. Stateless and
 * thread-safe.
 */
final class BucketSets {

    private BucketSets() {
    }

    /**
     * The buckets {@code request} sees in {@code group} at checkpoint {@code opId}, in rule order; empty when a
     * compaction of the parameter lookups has passed that checkpoint (a newer one is published: serve that one).
     */
    static Optional<List<BucketParameters>> visible(StoragePool pool, ServedGroup group, RequestContext request,
                                                    long opId) throws SQLException {
        ParameterQuerier querier = group.rules().querier(request);
        if (!querier.hasDynamicBuckets()) {
            return Optional.of(querier.staticBuckets());
        }
        Optional<Map<String, List<String>>> found = group.lookups().read(pool, querier.lookups(), opId);
        return found.map(querier::buckets);
    }
}
