package io.tributary.storage.progress;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Snapshot progress summed over the newest window of every table ({@link SnapshotProgress#latestWindows}), added up
 * by storage in one statement that returns one row, whatever the number of tables: what progress displays, gauges
 * and the caught-up check read every few hundred milliseconds.
 *
 * @param tables        tables with a window
 * @param tablesDone    tables whose newest window is DONE
 * @param openWindows   windows still being planned or read (PLANNING or SNAPSHOTTING)
 * @param failedTables  tables whose newest window FAILED
 * @param rowsDone      rows read by completed chunks
 * @param chunksDone    chunks completed
 * @param rowsEstimated the tables' estimated rows
 * @param pendingChunks chunks planned and not done, over the open windows
 */
public record WindowTotals(long tables, long tablesDone, long openWindows, long failedTables, long rowsDone,
                           long chunksDone, long rowsEstimated, long pendingChunks) {

    private static final String TOTALS = "SELECT count(*), count(*) FILTER (WHERE state = 'DONE'),"
        + " count(*) FILTER (WHERE state IN ('PLANNING', 'SNAPSHOTTING')), count(*) FILTER (WHERE state = 'FAILED'),"
        + " coalesce(sum(rows_done), 0), coalesce(sum(chunks_done), 0), coalesce(sum(rows_estimated), 0),"
        + " coalesce(sum(chunks_planned - chunks_done) FILTER (WHERE state IN ('PLANNING', 'SNAPSHOTTING')), 0)"
        + " FROM (SELECT DISTINCT ON (table_schema, table_name) state, chunks_planned, chunks_done, rows_done,"
        + " rows_estimated FROM tributary.source_tables ORDER BY table_schema, table_name, started_at DESC,"
        + " window_id DESC) newest";

    private static final String OPEN = "SELECT count(*) FROM tributary.source_tables"
        + " WHERE state IN ('PLANNING', 'SNAPSHOTTING')";

    /**
     * The windows still being planned or read, alone: a table has at most one open window, and it is its newest,
     * so they are counted without finding every table's newest window ({@link #openWindows()} of {@link #read}).
     */
    public static long countOpen(Connection connection) throws SQLException {
        try (Statement select = connection.createStatement(); ResultSet rs = select.executeQuery(OPEN)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The totals as storage holds them now. */
    public static WindowTotals read(Connection connection) throws SQLException {
        try (Statement select = connection.createStatement(); ResultSet rs = select.executeQuery(TOTALS)) {
            rs.next();
            return new WindowTotals(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                rs.getLong(6), rs.getLong(7), rs.getLong(8));
        }
    }
}
