package io.tributary.api.stream;

import io.tributary.api.protocol.OpEntry;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@link CheckpointDelta}: the ops in {@code (from, to]} of many buckets, in statements of at most
 * {@link #BUCKETS_PER_STATEMENT} buckets (an index range scan per bucket on the {@code bucket_data} key, an empty
 * one for a bucket without new ops). Memory is bounded: past {@code maxOps} ops the read stops and no delta is
 * made (each stream then reads its own ops, as for a checkpoint it did not follow).
 *
 * <p>Stateless and thread-safe; connections are not.
 */
final class DeltaReader {

    static final int BUCKETS_PER_STATEMENT = 10_000;

    private final String table;
    private final String groupKey;
    private final int maxOps;

    /**
     * @param maxOps the most ops one delta holds, &gt; 0
     */
    DeltaReader(long groupId, int maxOps) {
        if (maxOps <= 0) {
            throw new IllegalArgumentException("A delta holds at least one op: " + maxOps);
        }
        this.table = BucketTables.bucketData(groupId);
        this.groupKey = BucketTables.groupKey(groupId);
        this.maxOps = maxOps;
    }

    /** The delta of {@code buckets} over {@code (from, to]}, empty when it holds more than the most ops. */
    Optional<CheckpointDelta> read(Connection connection, List<String> buckets, long from, long to)
        throws SQLException {
        Map<String, List<OpEntry>> ops = new HashMap<>();
        Set<String> covered = new HashSet<>();
        int read = 0;
        for (int first = 0; first < buckets.size(); first += BUCKETS_PER_STATEMENT) {
            List<String> part = buckets.subList(first, Math.min(buckets.size(), first + BUCKETS_PER_STATEMENT));
            try (PreparedStatement select = connection.prepareStatement("SELECT r.bucket, d.op_id, d.op,"
                + " d.source_table, d.row_id, d.checksum, d.data"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS r(bucket, ord)"
                + " CROSS JOIN LATERAL (SELECT op_id, op, source_table, row_id, checksum, data FROM " + table + " d"
                + " WHERE " + groupKey + " AND d.bucket = r.bucket"
                + " AND d.op_id > ? AND d.op_id <= ? ORDER BY d.op_id) d"
                + " ORDER BY r.ord, d.op_id LIMIT ?")) {
                Array names = connection.createArrayOf("text", part.toArray());
                select.setArray(1, names);
                select.setLong(2, from);
                select.setLong(3, to);
                select.setInt(4, maxOps - read + 1);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        if (++read > maxOps) {
                            return Optional.empty();
                        }
                        ops.computeIfAbsent(rs.getString(1), b -> new ArrayList<>()).add(new OpEntry(rs.getLong(2),
                            OpEntry.OpType.ofStorageCode(rs.getShort(3)), rs.getString(4), rs.getString(5),
                            rs.getLong(6), rs.getString(7)));
                    }
                }
            }
            covered.addAll(part);
        }
        return Optional.of(new CheckpointDelta(from, to, covered, ops));
    }
}
