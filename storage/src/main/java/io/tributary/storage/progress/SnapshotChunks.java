package io.tributary.storage.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * Chunks in storage, as snapshot workers claim and complete them.
 *
 * <p>Every method is one short statement or transaction on the given connection (auto-commit on entry; restored),
 * never inside a worker's read transaction. Completing the last chunks of a table from several workers at once is
 * safe: the table's counters are incremented in place under its row lock, and the window becomes DONE exactly when
 * {@code chunks_done} reaches {@code chunks_planned}. Stateless and thread-safe; connections are not.
 */
public final class SnapshotChunks {

    private static final String CLAIM = "UPDATE tributary.snapshot_chunks c SET attempt = c.attempt + 1,"
        + " state = 'ASSIGNED', updated_at = now() FROM tributary.source_tables t"
        + " WHERE c.chunk_id = ? AND c.state <> 'DONE' AND t.table_schema = c.table_schema"
        + " AND t.table_name = c.table_name AND t.window_id = c.window_id"
        + " AND t.state IN ('PLANNING', 'SNAPSHOTTING') RETURNING c.attempt";
    private static final String CLAIM_ALL = "UPDATE tributary.snapshot_chunks c SET attempt = c.attempt + 1,"
        + " state = 'ASSIGNED', updated_at = now() FROM unnest(?::text[]) AS u(chunk_id), tributary.source_tables t"
        + " WHERE c.chunk_id = u.chunk_id AND c.state <> 'DONE' AND t.table_schema = c.table_schema"
        + " AND t.table_name = c.table_name AND t.window_id = c.window_id"
        + " AND t.state IN ('PLANNING', 'SNAPSHOTTING') RETURNING c.chunk_id, c.attempt";
    private static final String COMPLETE = "WITH done AS (UPDATE tributary.snapshot_chunks SET state = 'DONE',"
        + " row_count = ?, high_watermark = ?::pg_lsn, updated_at = now() WHERE chunk_id = ? AND state = 'ASSIGNED'"
        + " RETURNING table_schema, table_name, window_id, row_count, high_watermark)"
        + " UPDATE tributary.source_tables t SET chunks_done = t.chunks_done + 1, rows_done = t.rows_done"
        + " + d.row_count, high_watermark = greatest(t.high_watermark, d.high_watermark),"
        + " state = CASE WHEN t.state = 'SNAPSHOTTING' AND t.chunks_done + 1 >= t.chunks_planned THEN 'DONE'"
        + " ELSE t.state END, finished_at = CASE WHEN t.state = 'SNAPSHOTTING' AND t.chunks_done + 1"
        + " >= t.chunks_planned THEN now() ELSE t.finished_at END, updated_at = now() FROM done d"
        + " WHERE t.table_schema = d.table_schema AND t.table_name = d.table_name AND t.window_id = d.window_id"
        + " RETURNING " + prefixed("t.", SnapshotProgress.WINDOW_COLUMNS);
    private static final String COMPLETE_ALL = "WITH v AS (SELECT * FROM unnest(?::text[], ?::bigint[], ?::text[])"
        + " AS v(chunk_id, row_count, high_watermark)), done AS (UPDATE tributary.snapshot_chunks c SET state ="
        + " 'DONE', row_count = v.row_count, high_watermark = v.high_watermark::pg_lsn, updated_at = now() FROM v"
        + " WHERE c.chunk_id = v.chunk_id AND c.state = 'ASSIGNED' RETURNING c.chunk_id, c.table_schema,"
        + " c.table_name, c.window_id, c.row_count, c.high_watermark), sums AS (SELECT table_schema, table_name,"
        + " window_id, count(*)::int AS chunks, sum(row_count) AS row_count, max(high_watermark) AS high_watermark"
        + " FROM done GROUP BY table_schema, table_name, window_id), windows AS (UPDATE tributary.source_tables t"
        + " SET chunks_done = t.chunks_done + s.chunks, rows_done = t.rows_done + s.row_count, high_watermark ="
        + " greatest(t.high_watermark, s.high_watermark), state = CASE WHEN t.state = 'SNAPSHOTTING' AND"
        + " t.chunks_done + s.chunks >= t.chunks_planned THEN 'DONE' ELSE t.state END, finished_at = CASE WHEN"
        + " t.state = 'SNAPSHOTTING' AND t.chunks_done + s.chunks >= t.chunks_planned THEN now() ELSE t.finished_at"
        + " END, updated_at = now() FROM sums s WHERE t.table_schema = s.table_schema AND t.table_name ="
        + " s.table_name AND t.window_id = s.window_id RETURNING " + prefixed("t.", SnapshotProgress.WINDOW_COLUMNS)
        + ") SELECT w.*, d.chunk_id FROM done d JOIN windows w ON w.table_schema = d.table_schema AND w.table_name"
        + " = d.table_name AND w.window_id = d.window_id";
    private static final String CHUNK_COLUMNS = "table_schema, table_name, window_id, chunk_id, chunk_index, lo,"
        + " hi, state, attempt, priority";
    private static final String PENDING = "SELECT " + CHUNK_COLUMNS + " FROM tributary.snapshot_chunks"
        + " WHERE table_schema = ? AND table_name = ? AND window_id = ? AND state <> 'DONE' ORDER BY chunk_index";
    private static final String FIND = "SELECT " + CHUNK_COLUMNS + " FROM tributary.snapshot_chunks"
        + " WHERE chunk_id = ?";

    private SnapshotChunks() {
    }

    /**
     * Claims a chunk for a new attempt: {@code attempt = attempt + 1}, state ASSIGNED.
     *
     * @return the new attempt ({@code >= 1}); empty if the chunk is DONE, unknown, or its window is not open
     *         (DONE, FAILED or discarded): the task must then be skipped
     */
    public static OptionalInt claim(Connection connection, String chunkId) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(CLAIM)) {
            update.setString(1, chunkId);
            try (ResultSet rs = update.executeQuery()) {
                return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    /**
     * Claims several chunks for a new attempt each, as {@link #claim} does each, in one statement (atomic).
     *
     * @param chunkIds the chunks; a chunk named twice is claimed once
     * @return per chunk claimed (by id), its new attempt ({@code >= 1}); a chunk that is DONE, unknown, or whose
     *         window is not open is absent and unchanged (its task must be skipped)
     */
    public static Map<String, Integer> claimAll(Connection connection, Collection<String> chunkIds)
            throws SQLException {
        Map<String, Integer> claimed = new HashMap<>();
        List<String> sorted = new TreeSet<>(chunkIds).stream().toList();
        if (sorted.size() == 1) {
            // the statement over arrays is planned afresh at every execution; one chunk takes the simple one
            claim(connection, sorted.get(0)).ifPresent(attempt -> claimed.put(sorted.get(0), attempt));
            return claimed;
        }
        if (sorted.isEmpty()) {
            return claimed;
        }
        // sorted, so concurrent calls lock the chunks they share in the same order
        try (PreparedStatement update = connection.prepareStatement(CLAIM_ALL)) {
            update.setArray(1, connection.createArrayOf("text", sorted.toArray()));
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    claimed.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return claimed;
    }

    /**
     * Marks an ASSIGNED chunk DONE with its rows and high watermark and adds them to its window's progress.
     *
     * @param rowCount      rows the attempt read
     * @param highWatermark the attempt's high watermark (LSN text, e.g. {@code 0/16B3748})
     * @return the window's progress after this completion; empty if the chunk was not ASSIGNED (another attempt
     *         completed it first), in which case nothing changed
     */
    public static Optional<WindowProgress> complete(Connection connection, String chunkId, long rowCount,
                                                    String highWatermark) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(COMPLETE)) {
            update.setLong(1, rowCount);
            update.setString(2, highWatermark);
            update.setString(3, chunkId);
            try (ResultSet rs = update.executeQuery()) {
                return rs.next() ? Optional.of(SnapshotProgress.read(rs)) : Optional.empty();
            }
        }
    }

    /**
     * Marks several ASSIGNED chunks DONE, as {@link #complete} does each, in one statement (atomic): a window's
     * counters grow by all of its chunks among them at once, so a window completed by them becomes DONE in this
     * statement.
     *
     * @param chunks the chunks with their rows and high watermarks; a chunk named twice completes once
     * @return per chunk that this call completed (by id), its window's progress after the call; a chunk that was not
     *         ASSIGNED (another attempt completed it first) is absent and unchanged
     */
    public static Map<String, WindowProgress> completeAll(Connection connection, List<ChunkCompletion> chunks)
            throws SQLException {
        Map<String, WindowProgress> completed = new HashMap<>();
        if (chunks.isEmpty()) {
            return completed;
        }
        if (chunks.size() == 1) {
            // the statement over arrays is planned afresh at every execution; one chunk takes the simple one
            ChunkCompletion chunk = chunks.get(0);
            complete(connection, chunk.chunkId(), chunk.rowCount(), chunk.highWatermark())
                .ifPresent(window -> completed.put(chunk.chunkId(), window));
            return completed;
        }
        // sorted, so concurrent calls lock the chunks they share in the same order
        List<ChunkCompletion> sorted = chunks.stream().sorted(Comparator.comparing(ChunkCompletion::chunkId)).toList();
        try (PreparedStatement update = connection.prepareStatement(COMPLETE_ALL)) {
            update.setArray(1, connection.createArrayOf("text", sorted.stream().map(ChunkCompletion::chunkId)
                .toArray()));
            update.setArray(2, connection.createArrayOf("int8", sorted.stream().map(ChunkCompletion::rowCount)
                .toArray()));
            update.setArray(3, connection.createArrayOf("text", sorted.stream().map(ChunkCompletion::highWatermark)
                .toArray()));
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    completed.put(rs.getString(14), SnapshotProgress.read(rs));
                }
            }
        }
        return completed;
    }

    /** The chunk {@code chunkId}, if stored. */
    public static Optional<StoredChunk> find(Connection connection, String chunkId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(FIND)) {
            select.setString(1, chunkId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    /** The chunks of {@code window} that are not DONE, in index order. */
    public static List<StoredChunk> pending(Connection connection, WindowKey window) throws SQLException {
        List<StoredChunk> chunks = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(PENDING)) {
            SnapshotProgress.bindKey(select, 1, window);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    chunks.add(read(rs));
                }
            }
        }
        return chunks;
    }

    private static StoredChunk read(ResultSet rs) throws SQLException {
        WindowKey window = WindowKey.of(rs.getString(1), rs.getString(2), rs.getString(3));
        PlannedChunk chunk = new PlannedChunk(rs.getString(4), rs.getInt(5), Optional.ofNullable(rs.getString(6)),
            Optional.ofNullable(rs.getString(7)));
        return new StoredChunk(window, chunk, ChunkStatus.valueOf(rs.getString(8)), rs.getInt(9),
            SnapshotPriority.valueOf(rs.getString(10)));
    }

    private static String prefixed(String prefix, String columns) {
        StringBuilder out = new StringBuilder();
        for (String column : columns.split(",")) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(prefix).append(column.trim());
        }
        return out.toString();
    }
}
