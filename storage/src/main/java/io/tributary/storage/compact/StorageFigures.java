package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The size of a group's bucket storage and how much compaction could win.
 *
 * @param bytes    {@code pg_total_relation_size} of the group's {@code bucket_data}, {@code current_data} and
 *                 {@code bucket_parameters} partitions (tables, indexes, TOAST)
 * @param ops      the ops in its buckets
 * @param liveRows the rows its buckets hold: per bucket and row, those whose latest op is a PUT
 */
public record StorageFigures(long bytes, long ops, long liveRows) {

    /** Ops per live row: 1.0 is fully compacted; 0 for empty storage. */
    public double opsPerLiveRow() {
        return liveRows == 0 ? 0 : (double) ops / liveRows;
    }

    /** Reads the figures of group {@code groupId}; counting the live rows reads every op of the group once. */
    public static StorageFigures of(Connection connection, long groupId) throws SQLException {
        if (groupId <= 0) {
            throw new IllegalArgumentException("Group ids are > 0: " + groupId);
        }
        String table = "tributary.bucket_data_g" + groupId;
        try (PreparedStatement select = connection.prepareStatement("SELECT"
            + " pg_total_relation_size('" + table + "') + pg_total_relation_size('tributary.current_data_g" + groupId
            + "') + coalesce(pg_total_relation_size(to_regclass('tributary.bucket_parameters_g" + groupId + "')), 0),"
            + " (SELECT count(*) FROM " + table + "), (SELECT count(*) FROM (SELECT DISTINCT ON (bucket,"
            + " source_table, row_id) op FROM " + table + " WHERE op IN (1, 2) ORDER BY bucket, source_table,"
            + " row_id, op_id DESC) latest WHERE op = 1)")) {
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return new StorageFigures(rs.getLong(1), rs.getLong(2), rs.getLong(3));
            }
        }
    }
}
