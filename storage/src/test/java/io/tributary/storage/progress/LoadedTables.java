package io.tributary.storage.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;

/**
 * For tests of a storage writer fed a {@code rows} log directly: tables whose existing rows reach {@code rows} by
 * other means than a snapshot window. Records for each a DONE window {@value #WINDOW_ID} and,
 * for group {@code groupId}, its readiness in every partition from before the first epoch, as a snapshot that
 * completed before any record would. A checkpoint holds a table with rows but no window, and one whose window is
 * not ready, so without this such a group would never publish one. Idempotent; the caller's transaction.
 */
public final class LoadedTables {

    /** The window id recorded for a loaded table. */
    public static final String WINDOW_ID = "loaded";

    private static final String WINDOW = "INSERT INTO tributary.source_tables (table_schema, table_name, window_id,"
        + " state, priority, high_watermark, finished_at) VALUES (?, ?, '" + WINDOW_ID + "', 'DONE', 'ACTIVE_SNAPSHOT',"
        + " '0/0', now()) ON CONFLICT DO NOTHING";
    private static final String READY = "INSERT INTO tributary.table_readiness (group_id, partition, table_schema,"
        + " table_name, window_id, high_watermark, ready_after_epoch) SELECT ?, p, ?, ?, '" + WINDOW_ID + "', '0/0', -1"
        + " FROM generate_series(0, ? - 1) AS p ON CONFLICT DO NOTHING";

    private LoadedTables() {
    }

    /**
     * Marks {@code tables} ({@code schema.table}) loaded for group {@code groupId} over {@code partitions}
     * partitions of {@code rows}.
     */
    public static void markLoaded(Connection connection, long groupId, int partitions, Collection<String> tables)
        throws SQLException {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        for (String table : tables) {
            int dot = table.indexOf('.');
            if (dot <= 0 || dot == table.length() - 1) {
                throw new IllegalArgumentException("A loaded table is named schema.table, got '" + table + "'");
            }
            String schema = table.substring(0, dot);
            String name = table.substring(dot + 1);
            try (PreparedStatement window = connection.prepareStatement(WINDOW)) {
                window.setString(1, schema);
                window.setString(2, name);
                window.executeUpdate();
            }
            try (PreparedStatement ready = connection.prepareStatement(READY)) {
                ready.setLong(1, groupId);
                ready.setString(2, schema);
                ready.setString(3, name);
                ready.setInt(4, partitions);
                ready.executeUpdate();
            }
        }
    }
}
