package io.tributary.storage.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Groups whose rules read a source table with an output {@code id} that is not the table's single-column primary
 * key ({@code tributary.row_id_conflicts}): found by the snapshot planner for a table created, or first matched by a
 * wildcard, after the rules were deployed (the deploy checks the tables present then). One row per group and
 * table, with the problem in words (the query, the table, its key and the fix). The group's checkpoints are held
 * while it has one: a change of such a row's key becomes a REMOVE and a PUT in two partitions whose op ids are not
 * ordered, so the row could vanish on the client. A later window of the table whose check passes clears it.
 *
 * <p>Stateless; every method works on the caller's connection and transaction.
 */
public final class RowIdConflicts {

    private static final String RECORD = "INSERT INTO tributary.row_id_conflicts (group_id, table_schema,"
        + " table_name, problem) VALUES (?, ?, ?, ?) ON CONFLICT (group_id, table_schema, table_name)"
        + " DO UPDATE SET problem = EXCLUDED.problem";
    private static final String CLEAR = "DELETE FROM tributary.row_id_conflicts WHERE group_id = ?"
        + " AND table_schema = ? AND table_name = ?";
    private static final String FIRST = "SELECT table_schema, table_name, problem FROM tributary.row_id_conflicts"
        + " WHERE group_id = ? ORDER BY found_at, table_schema, table_name LIMIT 1";

    private RowIdConflicts() {
    }

    /** Records (or restates) that group {@code groupId}'s rules do not fit {@code schema.table}. */
    public static void record(Connection connection, long groupId, String schema, String table, String problem)
        throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(RECORD)) {
            insert.setLong(1, groupId);
            insert.setString(2, schema);
            insert.setString(3, table);
            insert.setString(4, problem);
            insert.executeUpdate();
        }
    }

    /** Clears group {@code groupId}'s conflict with {@code schema.table}; whether there was one. */
    public static boolean clear(Connection connection, long groupId, String schema, String table)
        throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(CLEAR)) {
            delete.setLong(1, groupId);
            delete.setString(2, schema);
            delete.setString(3, table);
            return delete.executeUpdate() > 0;
        }
    }

    /** Group {@code groupId}'s oldest conflict, as its problem in words; empty if it has none. */
    public static Optional<String> first(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(FIRST)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(3)) : Optional.empty();
            }
        }
    }
}
