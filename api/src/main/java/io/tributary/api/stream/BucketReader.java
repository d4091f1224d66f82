package io.tributary.api.stream;

import io.tributary.api.protocol.DataLine;
import io.tributary.api.protocol.DataLineWriter;
import io.tributary.api.protocol.OpEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads pages of bucket ops up to a checkpoint, for many buckets in one statement, into encoded {@code data} lines:
 * each bucket's ops above its position in op id order (an index range scan per bucket), buckets in the order
 * given, at most {@code pageOps} ops per page. The stored columns go from the result set into the line as bytes:
 * no op objects, no decoding of the row JSON. Stateless and thread-safe; connections and line writers are not.
 */
final class BucketReader {

    private final String statement;
    private final int pageOps;

    /**
     * @param pageOps the most ops one page holds, &gt; 0 (also the most ops of one data line)
     */
    BucketReader(long groupId, int pageOps) {
        if (pageOps <= 0) {
            throw new IllegalArgumentException("Page size must be > 0: " + pageOps);
        }
        this.statement = statement(groupId);
        this.pageOps = pageOps;
    }

    /**
     * The page statement of group {@code groupId}: parameters are the buckets (text[]), their positions (bigint[],
     * in the same order), the checkpoint, and the page size twice (per bucket, in all).
     */
    static String statement(long groupId) {
        return "SELECT r.ord::int, d.op_id, d.op, d.source_table, d.row_id, d.checksum, d.data"
            + " FROM unnest(?::text[], ?::bigint[]) WITH ORDINALITY AS r(bucket, after, ord)"
            + " CROSS JOIN LATERAL (SELECT op_id, op, source_table, row_id, checksum, data FROM "
            + BucketTables.bucketData(groupId) + " d WHERE " + BucketTables.groupKey(groupId)
            + " AND d.bucket = r.bucket AND d.op_id > r.after AND d.op_id <= ? ORDER BY d.op_id LIMIT ?) d"
            + " ORDER BY r.ord, d.op_id LIMIT ?";
    }

    /** One page: a line per bucket that had ops, in the order asked, and whether the page was cut short. */
    record Page(List<DataLine> lines, boolean full) {
    }

    /**
     * The next page of ops with {@code position < op_id <= checkpoint} of {@code positions}' buckets, in their
     * order, written by {@code writer}. When the page is {@link Page#full() full}, its last bucket may have more
     * (its line says {@code has_more}) and the buckets after it were not read; otherwise every bucket asked is
     * complete.
     */
    Page read(Connection connection, Map<String, Long> positions, long checkpoint, DataLineWriter writer)
        throws SQLException {
        List<String> buckets = new ArrayList<>(positions.keySet());
        List<Long> afters = new ArrayList<>(positions.values());
        List<DataLine> lines = new ArrayList<>();
        int rows = 0;
        int current = -1;
        try (PreparedStatement select = connection.prepareStatement(statement)) {
            select.setArray(1, connection.createArrayOf("text", buckets.toArray()));
            select.setArray(2, connection.createArrayOf("bigint", afters.toArray()));
            select.setLong(3, checkpoint);
            select.setInt(4, pageOps);
            select.setInt(5, pageOps);
            select.setFetchSize(pageOps);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    int index = rs.getInt(1) - 1;
                    if (index != current) {
                        if (current >= 0) {
                            lines.add(finish(writer, false));
                        }
                        current = index;
                        writer.start(buckets.get(index), afters.get(index));
                    }
                    writer.op(rs.getLong(2), OpEntry.OpType.ofStorageCode(rs.getShort(3)), rs.getBytes(4),
                        rs.getBytes(5), rs.getLong(6), rs.getBytes(7));
                }
            }
        }
        boolean full = rows >= pageOps;
        if (current >= 0) {
            lines.add(finish(writer, full));
        }
        return new Page(lines, full);
    }

    private static DataLine finish(DataLineWriter writer, boolean hasMore) {
        return new DataLine(writer.bucket(), writer.lastOpId(), writer.count(), writer.finish(hasMore));
    }
}
