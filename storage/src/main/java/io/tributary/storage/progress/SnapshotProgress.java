package io.tributary.storage.progress;

import io.tributary.postgres.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Snapshot windows in storage, as the planner and the status command use them.
 *
 * <p>Every method is one short transaction of its own on the given connection (auto-commit on entry; restored).
 * Batch methods take many windows in one transaction, so planning hundreds of tables costs a few round trips.
 * At most one window per table is open (PLANNING or SNAPSHOTTING): a unique index enforces it, so two planners
 * racing cannot both open one. Stateless and thread-safe; connections are not.
 */
public final class SnapshotProgress {

    static final String WINDOW_COLUMNS = "table_schema, table_name, window_id, state, priority, chunks_planned,"
        + " chunks_done, rows_done, rows_estimated, high_watermark::text, error, started_at, finished_at";

    private static final String OPEN = "INSERT INTO tributary.source_tables (table_schema, table_name, window_id,"
        + " state, priority) VALUES (?, ?, ?, 'PLANNING', ?) ON CONFLICT DO NOTHING";
    private static final String OPEN_FAILED = "INSERT INTO tributary.source_tables (table_schema, table_name,"
        + " window_id, state, priority, error, finished_at) VALUES (?, ?, ?, 'FAILED', ?, ?, now())";
    private static final String MARKER = "UPDATE tributary.source_tables SET marker_lsn = ?::pg_lsn,"
        + " updated_at = now() WHERE table_schema = ? AND table_name = ? AND window_id = ?";
    private static final String INSERT_CHUNK = "INSERT INTO tributary.snapshot_chunks (chunk_id, table_schema,"
        + " table_name, window_id, chunk_index, lo, hi, state, priority)"
        + " SELECT ?, ?, ?, ?, ?, ?, ?, 'PLANNED', t.priority FROM tributary.source_tables t"
        + " WHERE t.table_schema = ? AND t.table_name = ? AND t.window_id = ? AND t.state = 'PLANNING'";
    private static final String PLANNED = "UPDATE tributary.source_tables SET chunks_planned = ?,"
        + " rows_estimated = ?, updated_at = now()"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state = 'PLANNING'";
    private static final String SNAPSHOTTING = "UPDATE tributary.source_tables SET state = CASE WHEN chunks_done"
        + " >= chunks_planned THEN 'DONE' ELSE 'SNAPSHOTTING' END, finished_at = CASE WHEN chunks_done"
        + " >= chunks_planned THEN now() END, updated_at = now()"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state = 'PLANNING'"
        + " AND chunks_planned > 0";
    private static final String FAIL = "UPDATE tributary.source_tables SET state = 'FAILED', error = ?,"
        + " finished_at = now(), updated_at = now()"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state IN ('PLANNING', 'SNAPSHOTTING')";
    private static final String DISCARD = "DELETE FROM tributary.source_tables"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state = 'PLANNING'";
    private static final String DISCARD_UNPLANNED = DISCARD + " AND chunks_planned = 0";
    private static final String PROMOTE_WINDOW = "UPDATE tributary.source_tables SET priority = ?,"
        + " updated_at = now() WHERE table_schema = ? AND table_name = ? AND window_id = ?"
        + " AND state IN ('PLANNING', 'SNAPSHOTTING') AND priority <> ?";
    private static final String PROMOTE_CHUNKS = "UPDATE tributary.snapshot_chunks SET priority = ?,"
        + " updated_at = now() WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state <> 'DONE'";
    private static final String LATEST = "SELECT DISTINCT ON (table_schema, table_name) " + WINDOW_COLUMNS
        + " FROM tributary.source_tables ORDER BY table_schema, table_name, started_at DESC, window_id DESC";
    private static final String FIND = "SELECT " + WINDOW_COLUMNS + " FROM tributary.source_tables"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ?";

    private SnapshotProgress() {
    }

    /**
     * Opens a PLANNING window for each table, unless the table already has an open window.
     *
     * @param windows the windows to open, with the priority of their tasks
     * @return the windows opened (those of tables with an open window already are left out)
     */
    public static List<WindowKey> open(Connection connection, Map<WindowKey, SnapshotPriority> windows)
        throws SQLException {
        return open(connection, windows, List.of());
    }

    /**
     * Discards the PLANNING windows {@code replaced} whose chunks were never stored (an interrupted planning) and
     * opens the new {@code windows}, all in one transaction: no reader sees a table of a replaced window without
     * a window in between (a checkpointer would take such a table as not required).
     *
     * @param windows  the windows to open, with the priority of their tasks
     * @param replaced interrupted windows to delete (one that is no longer PLANNING, or has chunks, is kept)
     * @return the windows opened (those of tables with an open window already are left out)
     */
    public static List<WindowKey> open(Connection connection, Map<WindowKey, SnapshotPriority> windows,
                                       Collection<WindowKey> replaced) throws SQLException {
        return Transactions.inTransaction(connection, () -> {
            if (!replaced.isEmpty()) {
                try (PreparedStatement delete = connection.prepareStatement(DISCARD_UNPLANNED)) {
                    for (WindowKey key : replaced) {
                        bindKey(delete, 1, key);
                        delete.addBatch();
                    }
                    delete.executeBatch();
                }
            }
            List<WindowKey> keys = new ArrayList<>(windows.keySet());
            try (PreparedStatement insert = connection.prepareStatement(OPEN)) {
                for (WindowKey key : keys) {
                    bindKey(insert, 1, key);
                    insert.setString(4, windows.get(key).name());
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                List<WindowKey> opened = new ArrayList<>();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] != 0) {
                        opened.add(keys.get(i));
                    }
                }
                return opened;
            }
        });
    }

    /**
     * Records a window that failed before it could be planned (e.g. a table without a usable key), so it is
     * visible; it is opened and finished in one instant ({@link WindowProgress#failedBeforePlanning()}).
     */
    public static void recordFailure(Connection connection, WindowKey window, SnapshotPriority priority,
                                     String error) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(OPEN_FAILED)) {
            bindKey(insert, 1, window);
            insert.setString(4, priority.name());
            insert.setString(5, error);
            insert.executeUpdate();
        }
    }

    /** Records the LSN of each window's marker in the WAL (Postgres text form, e.g. {@code 0/16B3748}). */
    public static void recordMarkers(Connection connection, Map<WindowKey, String> markerLsns) throws SQLException {
        Transactions.inTransaction(connection, () -> {
            try (PreparedStatement update = connection.prepareStatement(MARKER)) {
                for (Map.Entry<WindowKey, String> entry : markerLsns.entrySet()) {
                    update.setString(1, entry.getValue());
                    bindKey(update, 2, entry.getKey());
                    update.addBatch();
                }
                update.executeBatch();
            }
            return null;
        });
    }

    /**
     * Stores the chunks of PLANNING windows (state PLANNED, attempt 0, the window's priority) and their
     * {@code chunks_planned} and estimate, all in one transaction. A window that is no longer PLANNING is left
     * out.
     *
     * @return the windows whose chunks were stored
     */
    public static List<WindowKey> storeChunks(Connection connection, Collection<WindowPlan> plans)
        throws SQLException {
        return Transactions.inTransaction(connection, () -> {
            List<WindowKey> stored = new ArrayList<>();
            try (PreparedStatement planned = connection.prepareStatement(PLANNED);
                 PreparedStatement insert = connection.prepareStatement(INSERT_CHUNK)) {
                List<WindowPlan> ordered = new ArrayList<>(plans);
                for (WindowPlan plan : ordered) {
                    planned.setInt(1, plan.chunks().size());
                    planned.setLong(2, plan.rowsEstimated());
                    bindKey(planned, 3, plan.window());
                    planned.addBatch();
                }
                int[] counts = planned.executeBatch();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == 0) {
                        continue;
                    }
                    WindowPlan plan = ordered.get(i);
                    stored.add(plan.window());
                    for (PlannedChunk chunk : plan.chunks()) {
                        insert.setString(1, chunk.chunkId());
                        bindKey(insert, 2, plan.window());
                        insert.setInt(5, chunk.index());
                        insert.setString(6, chunk.lo().orElse(null));
                        insert.setString(7, chunk.hi().orElse(null));
                        bindKey(insert, 8, plan.window());
                        insert.addBatch();
                    }
                }
                insert.executeBatch();
            }
            return stored;
        });
    }

    /**
     * Moves PLANNING windows whose chunks are stored to SNAPSHOTTING (or straight to DONE if every chunk is
     * done already).
     */
    public static void markSnapshotting(Connection connection, Collection<WindowKey> windows) throws SQLException {
        Transactions.inTransaction(connection, () -> {
            try (PreparedStatement update = connection.prepareStatement(SNAPSHOTTING)) {
                for (WindowKey window : windows) {
                    bindKey(update, 1, window);
                    update.addBatch();
                }
                update.executeBatch();
            }
            return null;
        });
    }

    /**
     * Moves an open window to FAILED with {@code error}.
     *
     * @return false if the window was not open (already DONE or FAILED, or unknown)
     */
    public static boolean fail(Connection connection, WindowKey window, String error) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(FAIL)) {
            update.setString(1, error);
            bindKey(update, 2, window);
            return update.executeUpdate() == 1;
        }
    }

    /**
     * Deletes a PLANNING window and its chunks (a window whose planning was interrupted before its chunks were
     * stored is replaced by a new one).
     *
     * @return false if the window was not PLANNING
     */
    public static boolean discard(Connection connection, WindowKey window) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(DISCARD)) {
            bindKey(delete, 1, window);
            return delete.executeUpdate() == 1;
        }
    }

    /**
     * Moves an open window and its chunks that are not done to {@code priority}.
     *
     * @return the chunks moved (whose tasks must be published again in their new queue), empty if the window was
     *         not open or had that priority already
     */
    public static List<StoredChunk> reprioritize(Connection connection, WindowKey window, SnapshotPriority priority)
        throws SQLException {
        return Transactions.inTransaction(connection, () -> {
            try (PreparedStatement update = connection.prepareStatement(PROMOTE_WINDOW)) {
                update.setString(1, priority.name());
                bindKey(update, 2, window);
                update.setString(5, priority.name());
                if (update.executeUpdate() == 0) {
                    return List.<StoredChunk>of();
                }
            }
            try (PreparedStatement update = connection.prepareStatement(PROMOTE_CHUNKS)) {
                update.setString(1, priority.name());
                bindKey(update, 2, window);
                update.executeUpdate();
            }
            return SnapshotChunks.pending(connection, window);
        });
    }

    /** The newest window of every table that has one, ordered by schema and table. */
    public static List<WindowProgress> latestWindows(Connection connection) throws SQLException {
        List<WindowProgress> windows = new ArrayList<>();
        try (Statement select = connection.createStatement(); ResultSet rs = select.executeQuery(LATEST)) {
            while (rs.next()) {
                windows.add(read(rs));
            }
        }
        return windows;
    }

    /** The window {@code window}, if stored. */
    public static Optional<WindowProgress> find(Connection connection, WindowKey window) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(FIND)) {
            bindKey(select, 1, window);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    static void bindKey(PreparedStatement statement, int first, WindowKey key) throws SQLException {
        statement.setString(first, key.schema());
        statement.setString(first + 1, key.table());
        statement.setString(first + 2, key.windowId());
    }

    /** Reads a row selected with {@link #WINDOW_COLUMNS} (from column 1). */
    static WindowProgress read(ResultSet rs) throws SQLException {
        Timestamp finished = rs.getTimestamp(13);
        return new WindowProgress(WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3)),
            WindowStatus.valueOf(rs.getString(4)), SnapshotPriority.valueOf(rs.getString(5)), rs.getInt(6),
            rs.getInt(7), rs.getLong(8), rs.getLong(9), Optional.ofNullable(rs.getString(10)),
            Optional.ofNullable(rs.getString(11)), rs.getTimestamp(12).toInstant(),
            Optional.ofNullable(finished).map(Timestamp::toInstant));
    }
}
