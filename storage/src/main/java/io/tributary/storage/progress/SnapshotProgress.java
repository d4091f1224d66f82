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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
        + " state, priority) SELECT u.s, u.t, u.w, 'PLANNING', u.p FROM unnest(?::text[], ?::text[], ?::text[],"
        + " ?::text[]) AS u(s, t, w, p) ON CONFLICT DO NOTHING RETURNING table_schema, table_name, window_id";
    private static final String OPEN_FAILED = "INSERT INTO tributary.source_tables (table_schema, table_name,"
        + " window_id, state, priority, error, finished_at) VALUES (?, ?, ?, 'FAILED', ?, ?, now())";
    private static final String KEYS = " t.table_schema = u.s AND t.table_name = u.t AND t.window_id = u.w";
    private static final String MARKER = "UPDATE tributary.source_tables t SET marker_lsn = u.l::pg_lsn,"
        + " updated_at = now() FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS u(s, t, w, l) WHERE"
        + KEYS;
    private static final String INSERT_CHUNK = "INSERT INTO tributary.snapshot_chunks (chunk_id, table_schema,"
        + " table_name, window_id, chunk_index, lo, hi, state, priority)"
        + " SELECT u.id, t.table_schema, t.table_name, t.window_id, u.i, u.lo, u.hi, 'PLANNED', t.priority"
        + " FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[])"
        + " AS u(s, t, w, id, i, lo, hi) JOIN tributary.source_tables t ON" + KEYS + " AND t.state = 'PLANNING'";
    private static final String PLANNED = "UPDATE tributary.source_tables t SET chunks_planned = u.n,"
        + " rows_estimated = u.e, updated_at = now() FROM unnest(?::text[], ?::text[], ?::text[], ?::int[],"
        + " ?::bigint[]) AS u(s, t, w, n, e) WHERE" + KEYS + " AND t.state = 'PLANNING'"
        + " RETURNING t.table_schema, t.table_name, t.window_id";
    private static final String SNAPSHOTTING = "UPDATE tributary.source_tables t SET state = CASE WHEN"
        + " t.chunks_done >= t.chunks_planned THEN 'DONE' ELSE 'SNAPSHOTTING' END, finished_at = CASE WHEN"
        + " t.chunks_done >= t.chunks_planned THEN now() END, updated_at = now()"
        + " FROM unnest(?::text[], ?::text[], ?::text[]) AS u(s, t, w) WHERE" + KEYS + " AND t.state = 'PLANNING'"
        + " AND t.chunks_planned > 0";
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
    private static final String LATEST_OF_TABLE = "SELECT " + WINDOW_COLUMNS + " FROM tributary.source_tables"
        + " WHERE table_schema = ? AND table_name = ? ORDER BY started_at DESC, window_id DESC LIMIT 1";
    private static final String WITH_MARKERS = "SELECT u.s, u.t, u.w FROM unnest(?::text[], ?::text[], ?::text[])"
        + " AS u(s, t, w) WHERE EXISTS (SELECT 1 FROM tributary.source_tables t WHERE t.table_schema = u.s"
        + " AND t.table_name = u.t AND t.marker_lsn IS NOT NULL)";
    private static final String REPLACING_UNCUT = "SELECT t.table_schema, t.table_name, t.window_id,"
        + " t.marker_lsn::text FROM tributary.source_tables t WHERE t.state = 'PLANNING' AND t.chunks_planned = 0"
        + " AND t.marker_lsn IS NOT NULL AND EXISTS (SELECT 1 FROM tributary.source_tables o"
        + " WHERE o.table_schema = t.table_schema AND o.table_name = t.table_name AND o.window_id <> t.window_id"
        + " AND o.marker_lsn IS NOT NULL)";

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
            if (keys.isEmpty()) {
                return List.<WindowKey>of();
            }
            Set<WindowKey> inserted = new HashSet<>();
            try (PreparedStatement insert = connection.prepareStatement(OPEN)) {
                bindKeys(connection, insert, 1, keys);
                insert.setArray(4, connection.createArrayOf("text", keys.stream().map(k -> windows.get(k).name())
                    .toArray()));
                try (ResultSet rs = insert.executeQuery()) {
                    while (rs.next()) {
                        inserted.add(WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3)));
                    }
                }
            }
            return keys.stream().filter(inserted::contains).toList();
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

    /**
     * Records, per window, that its marker is in the WAL: the WAL position once the marker's transaction committed
     * (Postgres text form, e.g. {@code 0/16B3748}), at or past its commit, so every barrier at or past it follows
     * the marker in {@code changes}.
     */
    public static void recordMarkers(Connection connection, Map<WindowKey, String> markerLsns) throws SQLException {
        if (markerLsns.isEmpty()) {
            return;
        }
        List<WindowKey> keys = new ArrayList<>(markerLsns.keySet());
        try (PreparedStatement update = connection.prepareStatement(MARKER)) {
            bindKeys(connection, update, 1, keys);
            update.setArray(4, connection.createArrayOf("text", keys.stream().map(markerLsns::get).toArray()));
            update.executeUpdate();
        }
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
        if (plans.isEmpty()) {
            return List.of();
        }
        return Transactions.inTransaction(connection, () -> {
            List<WindowPlan> ordered = new ArrayList<>(plans);
            Set<WindowKey> updated = new HashSet<>();
            try (PreparedStatement planned = connection.prepareStatement(PLANNED)) {
                bindKeys(connection, planned, 1, ordered.stream().map(WindowPlan::window).toList());
                planned.setArray(4, connection.createArrayOf("int4", ordered.stream().map(p -> p.chunks().size())
                    .toArray()));
                planned.setArray(5, connection.createArrayOf("int8", ordered.stream().map(WindowPlan::rowsEstimated)
                    .toArray()));
                try (ResultSet rs = planned.executeQuery()) {
                    while (rs.next()) {
                        updated.add(WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3)));
                    }
                }
            }
            List<WindowPlan> stored = ordered.stream().filter(p -> updated.contains(p.window())).toList();
            List<WindowKey> windows = new ArrayList<>();
            List<PlannedChunk> chunks = new ArrayList<>();
            for (WindowPlan plan : stored) {
                for (PlannedChunk chunk : plan.chunks()) {
                    windows.add(plan.window());
                    chunks.add(chunk);
                }
            }
            if (!chunks.isEmpty()) {
                try (PreparedStatement insert = connection.prepareStatement(INSERT_CHUNK)) {
                    bindKeys(connection, insert, 1, windows);
                    insert.setArray(4, connection.createArrayOf("text", chunks.stream().map(PlannedChunk::chunkId)
                        .toArray()));
                    insert.setArray(5, connection.createArrayOf("int4", chunks.stream().map(PlannedChunk::index)
                        .toArray()));
                    insert.setArray(6, connection.createArrayOf("text", chunks.stream()
                        .map(c -> c.lo().orElse(null)).toArray()));
                    insert.setArray(7, connection.createArrayOf("text", chunks.stream()
                        .map(c -> c.hi().orElse(null)).toArray()));
                    insert.executeUpdate();
                }
            }
            return stored.stream().map(WindowPlan::window).toList();
        });
    }

    /**
     * Moves PLANNING windows whose chunks are stored to SNAPSHOTTING (or straight to DONE if every chunk is
     * done already).
     */
    public static void markSnapshotting(Connection connection, Collection<WindowKey> windows) throws SQLException {
        if (windows.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement(SNAPSHOTTING)) {
            bindKeys(connection, update, 1, List.copyOf(windows));
            update.executeUpdate();
        }
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

    /** The newest window of {@code schema}.{@code table}, if it has one. */
    public static Optional<WindowProgress> latest(Connection connection, String schema, String table)
        throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(LATEST_OF_TABLE)) {
            select.setString(1, schema);
            select.setString(2, table);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    /**
     * Those of {@code windows} (new, their markers not recorded yet) whose table had another window whose marker
     * reached the WAL: the table's rows may be in the table log, so the new window replaces them.
     */
    public static Set<WindowKey> replacing(Connection connection, Collection<WindowKey> windows)
        throws SQLException {
        Set<WindowKey> found = new HashSet<>();
        if (windows.isEmpty()) {
            return found;
        }
        List<WindowKey> keys = new ArrayList<>(windows);
        try (PreparedStatement select = connection.prepareStatement(WITH_MARKERS)) {
            bindKeys(connection, select, 1, keys);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    found.add(WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return found;
    }

    /**
     * The PLANNING windows that replace their tables' rows (another window of the table reached the WAL) whose own
     * markers are in the WAL ({@link #recordMarkers}) but that have no chunks yet, with the position recorded for
     * each.
     */
    public static Map<WindowKey, String> replacingWithoutChunks(Connection connection) throws SQLException {
        Map<WindowKey, String> windows = new LinkedHashMap<>();
        try (Statement select = connection.createStatement(); ResultSet rs = select.executeQuery(REPLACING_UNCUT)) {
            while (rs.next()) {
                windows.put(WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3)), rs.getString(4));
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

    /** Binds the schemas, tables and window ids of {@code keys} as three text arrays from parameter {@code first}. */
    private static void bindKeys(Connection connection, PreparedStatement statement, int first, List<WindowKey> keys)
            throws SQLException {
        statement.setArray(first, connection.createArrayOf("text", keys.stream().map(WindowKey::schema).toArray()));
        statement.setArray(first + 1, connection.createArrayOf("text", keys.stream().map(WindowKey::table)
            .toArray()));
        statement.setArray(first + 2, connection.createArrayOf("text", keys.stream().map(WindowKey::windowId)
            .toArray()));
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
