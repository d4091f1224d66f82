package io.tributary.chaos.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Invariant 1 against an evaluation that shares no code with the product: which rows each bucket of the chaos
 * workload's rules ({@code WorkloadSchema.SYNC_RULES}) must hold, computed from the source tables with plain SQL
 * (one query per data query of the rules), compared with the rows a group serves. It catches a bucket membership
 * that the product's evaluator and the reference evaluator, which share the rules parser, could get wrong alike;
 * the rows' bytes and the checksums are {@link BucketCheck}'s.
 *
 * <p>Only the buckets of the workload's three definitions ({@link #DEFINITIONS}) are compared; a group whose rules
 * add definitions has those checked by {@link BucketCheck} alone. Stateless.
 */
public final class SqlBuckets {

    /** The bucket definitions of the workload's rules, which {@link #expected} evaluates. */
    public static final List<String> DEFINITIONS = List.of("all_accounts", "by_owner", "flagged");

    private static final String MEMBERS = """
        SELECT 'all_accounts[]', 'accounts', id::text FROM accounts
        UNION ALL SELECT 'by_owner[' || to_json(owner)::text || ']', 'items', id::text FROM items
        UNION ALL SELECT 'by_owner[' || to_json(owner)::text || ']', 'docs', id::text FROM docs
        UNION ALL SELECT 'by_owner[' || to_json(owner)::text || ']', 'notes', id FROM notes
        UNION ALL SELECT 'by_owner[' || to_json(owner)::text || ']', 'lines', id FROM lines
        UNION ALL SELECT 'flagged[]', 'items', id::text FROM items WHERE flag AND qty > 50
        """;

    private SqlBuckets() {
    }

    /**
     * The rows each bucket must hold now, as {@code <output table>/<row id>} by bucket name; buckets without rows
     * are absent. Read in one statement, so from one snapshot of the source.
     */
    public static Map<String, Set<String>> expected(Connection source) throws SQLException {
        Map<String, Set<String>> buckets = new TreeMap<>();
        try (PreparedStatement select = source.prepareStatement(MEMBERS)) {
            select.setFetchSize(10_000);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    buckets.computeIfAbsent(rs.getString(1), b -> new TreeSet<>())
                        .add(rs.getString(2) + "/" + rs.getString(3));
                }
            }
        }
        return buckets;
    }

    /** The rows of the served buckets of {@link #DEFINITIONS}, as {@link #expected} names them. */
    public static Map<String, Set<String>> served(Map<String, BucketCheck.Bucket> served) {
        Map<String, Set<String>> buckets = new TreeMap<>();
        served.forEach((bucket, contents) -> {
            if (DEFINITIONS.contains(definition(bucket)) && !contents.rows().isEmpty()) {
                buckets.put(bucket, new TreeSet<>(contents.rows().keySet()));
            }
        });
        return buckets;
    }

    private static String definition(String bucket) {
        int bracket = bucket.indexOf('[');
        return bracket < 0 ? bucket : bucket.substring(0, bracket);
    }

    /** A {@code buckets-sql} mismatch per row that is in one side's bucket and not in the other's. */
    public static List<Mismatch> compare(Map<String, Set<String>> expected, Map<String, Set<String>> served) {
        TreeSet<String> names = new TreeSet<>(expected.keySet());
        names.addAll(served.keySet());
        List<Mismatch> mismatches = new ArrayList<>();
        for (String name : names) {
            Set<String> want = expected.getOrDefault(name, Set.of());
            Set<String> got = served.getOrDefault(name, Set.of());
            TreeSet<String> rows = new TreeSet<>(want);
            rows.addAll(got);
            for (String row : rows) {
                boolean wanted = want.contains(row);
                if (wanted != got.contains(row)) {
                    mismatches.add(Mismatch.of("buckets-sql", name + "/" + row, wanted ? "in the bucket" : null,
                        wanted ? null : "in the bucket"));
                }
            }
        }
        return mismatches;
    }
}
