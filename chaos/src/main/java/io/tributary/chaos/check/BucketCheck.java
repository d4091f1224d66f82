package io.tributary.chaos.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.launcher.inspect.BucketSnapshot;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import io.tributary.syncrules.ExpectedBuckets;
import io.tributary.syncrules.ReferenceEvaluator;
import io.tributary.syncrules.SyncRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Invariant 1 (convergence): what a client downloads from a group at its checkpoint (ops reduced per bucket and
 * row) equals the group's rules evaluated directly over the source rows, row by row, plus each bucket's checksum
 * and count. Stateless.
 */
public final class BucketCheck {

    /** Parses rows like the storage writer does: decimals keep their text ({@code 1.50} stays {@code 1.50}). */
    private static final ObjectMapper ROWS = JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    /** One bucket: its rows by (output table, id), and checksum and count as storage computes or expects them. */
    public record Bucket(Map<String, String> rows, long checksum, long count) {
    }

    private BucketCheck() {
    }

    /** The buckets {@code rules} give over {@code sourceRows} ({@link SourceTables#read}). */
    public static Map<String, Bucket> expected(String rules, Map<String, Map<String, String>> sourceRows) {
        Map<String, List<ObjectNode>> rowsByTable = new LinkedHashMap<>();
        sourceRows.forEach((table, rows) -> {
            List<ObjectNode> parsed = new ArrayList<>();
            for (String row : rows.values()) {
                parsed.add(parse(row));
            }
            rowsByTable.put(table, parsed);
        });
        ExpectedBuckets expected = new ReferenceEvaluator(SyncRules.parse(rules)).evaluate(rowsByTable);
        if (!expected.errors().isEmpty()) {
            throw new IllegalStateException("The chaos rules do not evaluate cleanly: " + expected.errors());
        }
        Map<String, Bucket> buckets = new TreeMap<>();
        for (ExpectedBucket bucket : expected.buckets().values()) {
            Map<String, String> rows = new TreeMap<>();
            for (BucketRow row : bucket.rows()) {
                rows.put(row.table() + "/" + row.id(), row.data());
            }
            buckets.put(bucket.bucket(), new Bucket(rows, bucket.checksum(), bucket.count()));
        }
        return buckets;
    }

    private static ObjectNode parse(String row) {
        try {
            return (ObjectNode) ROWS.readTree(row);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Not a JSON row: " + row, e);
        }
    }

    /** What group {@code groupId} serves at its current checkpoint (buckets with rows only). */
    public static Map<String, Bucket> served(Connection storage, long groupId) throws SQLException {
        Map<String, Bucket> buckets = new TreeMap<>();
        Map<String, String> rows = new TreeMap<>();
        BucketSnapshot.read(storage, Optional.of(groupId), "", new BucketSnapshot.Visitor() {
            @Override
            public void start(SyncRulesGroup group, Checkpoint checkpoint) {
            }

            @Override
            public void row(String bucket, String table, String id, String data) {
                rows.put(table + "/" + id, data);
            }

            @Override
            public void bucketEnd(String bucket, long checksum, long count) {
                if (count > 0) {
                    buckets.put(bucket, new Bucket(new TreeMap<>(rows), checksum, count));
                }
                rows.clear();
            }
        });
        return buckets;
    }

    /** Every difference between {@code expected} and {@code served}: rows, then checksums and counts. */
    public static List<Mismatch> compare(Map<String, Bucket> expected, Map<String, Bucket> served) {
        List<Mismatch> mismatches = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>(expected.keySet());
        names.addAll(served.keySet());
        Bucket empty = new Bucket(Map.of(), 0, 0);
        for (String name : names) {
            Bucket want = expected.getOrDefault(name, empty);
            Bucket got = served.getOrDefault(name, empty);
            TreeSet<String> rows = new TreeSet<>(want.rows().keySet());
            rows.addAll(got.rows().keySet());
            boolean rowsDiffer = false;
            for (String row : rows) {
                String wantData = want.rows().get(row);
                String gotData = got.rows().get(row);
                if (wantData == null || !wantData.equals(gotData)) {
                    rowsDiffer = true;
                    mismatches.add(Mismatch.of("buckets", name + "/" + row, wantData, gotData));
                }
            }
            if (!rowsDiffer && (want.checksum() != got.checksum() || want.count() != got.count())) {
                mismatches.add(Mismatch.of("buckets", name + " (checksum, count)",
                    want.checksum() + ", " + want.count(), got.checksum() + ", " + got.count()));
            }
        }
        return mismatches;
    }
}
