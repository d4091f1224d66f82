package io.tributary.syncrules;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The expected bucket contents of a sync rules version, computed directly from source rows: what storage must
 * hold once the pipeline has caught up (ops reduced per bucket and row), including checksums. Convergence tests
 * compare storage against it.
 *
 * <p>Two rows that land in the same bucket with the same output table and id (e.g. the same id in two tenant
 * schemas of a global bucket) collide: the first in input order is kept and an {@link EvaluationError} is
 * reported, because the outcome in storage would depend on op order.
 *
 * <p>Stateless apart from the rules; thread-safe.
 */
public final class ReferenceEvaluator {

    private record RowKey(String bucket, String table, String id) {
    }

    private final SyncRules rules;

    public ReferenceEvaluator(SyncRules rules) {
        this.rules = Objects.requireNonNull(rules, "rules");
    }

    /**
     * The bucket contents of {@code rowsByTable}: for each source table ({@code schema.table}), its current rows.
     * Tables are evaluated in the map's iteration order, rows in collection order.
     */
    public ExpectedBuckets evaluate(Map<String, ? extends Collection<? extends ObjectNode>> rowsByTable) {
        Map<RowKey, BucketRow> rows = new LinkedHashMap<>();
        Map<RowKey, String> origins = new LinkedHashMap<>();
        List<EvaluationError> errors = new ArrayList<>();
        for (Map.Entry<String, ? extends Collection<? extends ObjectNode>> table : rowsByTable.entrySet()) {
            for (ObjectNode row : table.getValue()) {
                EvaluationResult result = rules.evaluate(table.getKey(), row);
                errors.addAll(result.errors());
                for (BucketRow bucketRow : result.rows()) {
                    RowKey key = new RowKey(bucketRow.bucket(), bucketRow.table(), bucketRow.id());
                    BucketRow previous = rows.putIfAbsent(key, bucketRow);
                    if (previous == null) {
                        origins.put(key, table.getKey());
                    } else {
                        errors.add(collision(table.getKey(), bucketRow, origins.get(key)));
                    }
                }
            }
        }
        Map<String, List<BucketRow>> byBucket = new TreeMap<>();
        for (BucketRow row : rows.values()) {
            byBucket.computeIfAbsent(row.bucket(), b -> new ArrayList<>()).add(row);
        }
        TreeMap<String, ExpectedBucket> buckets = new TreeMap<>();
        byBucket.forEach((bucket, bucketRows) -> buckets.put(bucket, ExpectedBucket.of(bucket, bucketRows)));
        return new ExpectedBuckets(buckets, errors);
    }

    private static EvaluationError collision(String sourceTable, BucketRow row, String firstSourceTable) {
        return new EvaluationError(sourceTable, "bucket " + row.bucket(), "row " + row.table() + "/" + row.id()
            + " collides with the row of the same table and id from " + firstSourceTable + "; keeping the first");
    }
}
