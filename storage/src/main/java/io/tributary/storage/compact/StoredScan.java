package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The bucket scan a bounded compaction pass stopped inside, stored per group ({@code compaction_scan}, with the
 * rows it saw in {@code compaction_scan_rows}), so that the next pass goes on where it stopped even in a new
 * process. Only the compaction holding the group's lock reads or writes it. Stateless; every method runs in the
 * connection's own transaction mode (auto-commit during a pass).
 */
final class StoredScan {

    private static final String SAVE = "INSERT INTO tributary.compaction_scan (group_id, after_cursor, bucket,"
        + " checkpoint, below, scanned, last_not_put, ops_since_put, lowest_live_put, fold_op_id, fold_checksum)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (group_id) DO UPDATE SET"
        + " after_cursor = excluded.after_cursor, bucket = excluded.bucket, checkpoint = excluded.checkpoint,"
        + " below = excluded.below, scanned = excluded.scanned, last_not_put = excluded.last_not_put,"
        + " ops_since_put = excluded.ops_since_put, lowest_live_put = excluded.lowest_live_put,"
        + " fold_op_id = excluded.fold_op_id, fold_checksum = excluded.fold_checksum";
    private static final String SAVE_ROWS = "INSERT INTO tributary.compaction_scan_rows (group_id, row_key)"
        + " SELECT ?, unnest(?::text[]) ON CONFLICT DO NOTHING";
    private static final String LOAD = "SELECT bucket, checkpoint, below, scanned, last_not_put, ops_since_put,"
        + " lowest_live_put, fold_op_id, fold_checksum FROM tributary.compaction_scan"
        + " WHERE group_id = ? AND after_cursor = ?";
    private static final String LOAD_ROWS = "SELECT row_key FROM tributary.compaction_scan_rows WHERE group_id = ?";
    private static final int ROWS_PER_STATEMENT = 10_000;

    private StoredScan() {
    }

    /**
     * A stopped scan's position: the fields of {@code compaction_scan} (see its migration) other than the group
     * and the cursor.
     */
    record State(String bucket, long checkpoint, long below, boolean scanned, long lastNotPut, long opsSincePut,
                 long lowestLivePut, long foldOpId, long foldChecksum) {
    }

    /** Stores {@code state} and adds {@code newRows} to the rows the scan has seen. */
    static void save(CompactionPass pass, String afterCursor, State state, List<String> newRows)
        throws SQLException {
        Connection connection = pass.connection;
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            for (int from = 0; from < newRows.size(); from += ROWS_PER_STATEMENT) {
                List<String> part = newRows.subList(from, Math.min(newRows.size(), from + ROWS_PER_STATEMENT));
                try (PreparedStatement insert = connection.prepareStatement(SAVE_ROWS)) {
                    insert.setLong(1, pass.groupId);
                    insert.setArray(2, connection.createArrayOf("text", part.toArray()));
                    insert.executeUpdate();
                }
            }
            try (PreparedStatement upsert = connection.prepareStatement(SAVE)) {
                upsert.setLong(1, pass.groupId);
                upsert.setString(2, afterCursor);
                upsert.setString(3, state.bucket());
                upsert.setLong(4, state.checkpoint());
                upsert.setLong(5, state.below());
                upsert.setBoolean(6, state.scanned());
                upsert.setLong(7, state.lastNotPut());
                upsert.setLong(8, state.opsSincePut());
                upsert.setLong(9, state.lowestLivePut());
                upsert.setLong(10, state.foldOpId());
                upsert.setLong(11, state.foldChecksum());
                upsert.executeUpdate();
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The position of the scan stored for the group when the pass starts from {@code cursor}, if any. */
    static Optional<State> state(CompactionPass pass, String cursor) throws SQLException {
        try (PreparedStatement select = pass.connection.prepareStatement(LOAD)) {
            select.setLong(1, pass.groupId);
            select.setString(2, cursor);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new State(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getBoolean(4),
                    rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)));
            }
        }
    }

    /** The scan stored at {@code state}, with the rows it saw (reads every one, at most the tracked rows). */
    static BucketScan load(CompactionPass pass, State state, int batchOps, int trackedRows) throws SQLException {
        Set<String> seen = new HashSet<>();
        try (PreparedStatement select = pass.connection.prepareStatement(LOAD_ROWS)) {
            select.setLong(1, pass.groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    seen.add(rs.getString(1));
                }
            }
        }
        return BucketScan.resumed(state, seen, batchOps, trackedRows);
    }

    /** Forgets the group's stored scan, if any: its bucket is done, or a pass started elsewhere. */
    static void clear(CompactionPass pass) throws SQLException {
        try (PreparedStatement delete = pass.connection.prepareStatement(
            "DELETE FROM tributary.compaction_scan_rows WHERE group_id = ?")) {
            delete.setLong(1, pass.groupId);
            delete.executeUpdate();
        }
        try (PreparedStatement delete = pass.connection.prepareStatement(
            "DELETE FROM tributary.compaction_scan WHERE group_id = ?")) {
            delete.setLong(1, pass.groupId);
            delete.executeUpdate();
        }
    }
}
