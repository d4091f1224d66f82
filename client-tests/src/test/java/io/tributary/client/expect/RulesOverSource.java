package io.tributary.client.expect;

import io.tributary.launcher.run.StorageContents;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import java.sql.Connection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a client must hold: the sync rules evaluated directly over the source tables (the reference evaluator over
 * rows encoded as the snapshot path encodes them), as bucket name to rows.
 */
public final class RulesOverSource {

    private RulesOverSource() {
    }

    /** The non-empty buckets whose names pass {@code buckets}, each with its rows. */
    public static Map<String, Set<SyncedRow>> expected(Connection source, String rules, Predicate<String> buckets)
        throws Exception {
        Map<String, Set<SyncedRow>> expected = new TreeMap<>();
        for (ExpectedBucket bucket : StorageContents.rulesOverSource(source, rules).buckets().values()) {
            if (buckets.test(bucket.bucket()) && !bucket.rows().isEmpty()) {
                Set<SyncedRow> rows = new TreeSet<>();
                for (BucketRow row : bucket.rows()) {
                    rows.add(new SyncedRow(row.table(), row.id(), row.data()));
                }
                expected.put(bucket.bucket(), rows);
            }
        }
        return expected;
    }
}
