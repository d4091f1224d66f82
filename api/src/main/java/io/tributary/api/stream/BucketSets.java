package io.tributary.api.stream;

import io.tributary.storage.parameters.ParameterLookupsAt;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.RequestContext;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Which buckets a client sees at a checkpoint: those its request alone decides, plus those its parameter queries
 * with FROM find among the parameter lookups stored at that checkpoint (PowerSync's bucket parameter querier). A
 * session asks at every checkpoint it serves, so a membership change that the checkpoint covers adds or removes
 * buckets in the next {@code checkpoint_diff}. Stateless and thread-safe.
 */
final class BucketSets {

    private BucketSets() {
    }

    /** The buckets {@code request} sees in {@code group} at checkpoint {@code opId}, in rule order. */
    static List<BucketParameters> visible(StoragePool pool, ServedGroup group, RequestContext request, long opId)
        throws SQLException {
        ParameterQuerier querier = group.rules().querier(request);
        if (!querier.hasDynamicBuckets()) {
            return querier.staticBuckets();
        }
        Map<String, List<String>> found = pool.withConnection(c -> ParameterLookupsAt.read(c, group.id(),
            querier.lookups(), opId));
        return querier.buckets(found);
    }
}
