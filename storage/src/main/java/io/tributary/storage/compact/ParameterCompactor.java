package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Compacts one group's parameter lookups ({@code bucket_parameters}) up to a published checkpoint P, the way
 * PowerSync compacts its parameter data: per lookup and source row, only the newest version at or below P is kept,
 * and dropped as well when it says the row left the lookup. A lookup at any checkpoint C &gt;= P reads, per lookup
 * and source row, the newest version at or below C, which is either above P (untouched) or that kept version; so
 * it sees exactly what it saw before.
 *
 * <p>Incremental and bounded: the group's {@code parameters_compacted_to} cursor
 * ({@code tributary.compaction_state})
 * says up to which op id versions were examined; a pass reads only the versions above it, in pages of
 * {@code batchVersions}, and each page is one transaction that deletes the superseded versions of the pairs
 * (lookup, source row) the page touched and moves the cursor to the page's end. So a pass costs what writers
 * appended since the last one, and an interrupted pass repeats at most one page.
 *
 * <p>Readers at an older checkpoint: each page's transaction raises the group's {@code parameter_fence} to P with its
 * deletes, and a lookup reads the fence in the statement that reads the versions
 * ({@code io.tributary.storage.parameters.ParameterLookupsAt}), so a lookup at C &lt; fence knows it may miss
 * versions and uses a newer checkpoint. Writers only append above the published checkpoint and never touch
 * versions at or below it, so nothing here waits on them nor they on it.
 *
 * <p>The caller holds the group's compaction lock. Not thread-safe; one instance per caller.
 */
final class ParameterCompactor {

    private static final String CURSOR = "INSERT INTO tributary.compaction_state (group_id) VALUES (?)"
        + " ON CONFLICT (group_id) DO UPDATE SET group_id = excluded.group_id RETURNING parameters_compacted_to";
    private static final String PAGE_END = "SELECT op_id FROM tributary.bucket_parameters WHERE group_id = ?"
        + " AND op_id > ? AND op_id <= ? ORDER BY op_id OFFSET ? LIMIT 1";
    private static final String RAISE_FENCE = "UPDATE tributary.compaction_state"
        + " SET parameter_fence = greatest(parameter_fence, ?) WHERE group_id = ?";
    private static final String DELETE_SUPERSEDED = "WITH touched AS (SELECT DISTINCT lookup, source_key"
        + " FROM tributary.bucket_parameters WHERE group_id = ? AND op_id > ? AND op_id <= ?),"
        + " newest AS (SELECT t.lookup, t.source_key, (SELECT max(b.op_id) FROM tributary.bucket_parameters b"
        + " WHERE b.group_id = ? AND b.lookup = t.lookup AND b.source_key = t.source_key AND b.op_id <= ?) AS op_id"
        + " FROM touched t)"
        + " DELETE FROM tributary.bucket_parameters b USING newest n WHERE b.group_id = ? AND b.lookup = n.lookup"
        + " AND b.source_key = n.source_key AND b.op_id <= n.op_id AND (b.op_id < n.op_id OR b.parameters IS NULL)";
    private static final String ADVANCE = "UPDATE tributary.compaction_state"
        + " SET parameters_compacted_to = greatest(parameters_compacted_to, ?) WHERE group_id = ?";

    private final int batchVersions;

    ParameterCompactor(int batchVersions) {
        if (batchVersions <= 0) {
            throw new IllegalArgumentException("Batch size is > 0: " + batchVersions);
        }
        this.batchVersions = batchVersions;
    }

    /**
     * Compacts the lookups of group {@code groupId} up to {@code checkpoint}, its published checkpoint.
     * {@code connection} is in auto-commit mode and stays so; each page commits on its own.
     *
     * @return the versions deleted
     */
    long compact(Connection connection, long groupId, long checkpoint) throws SQLException {
        long cursor;
        try (PreparedStatement select = connection.prepareStatement(CURSOR)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                cursor = rs.getLong(1);
            }
        }
        long deleted = 0;
        while (cursor < checkpoint) {
            long end = pageEnd(connection, groupId, cursor, checkpoint);
            deleted += page(connection, groupId, cursor, end, checkpoint);
            cursor = end;
        }
        return deleted;
    }

    /** The op id that ends the page after {@code cursor}: {@code batchVersions} versions on, or the checkpoint. */
    private long pageEnd(Connection connection, long groupId, long cursor, long checkpoint) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(PAGE_END)) {
            select.setLong(1, groupId);
            select.setLong(2, cursor);
            select.setLong(3, checkpoint);
            select.setInt(4, batchVersions - 1);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? rs.getLong(1) : checkpoint;
            }
        }
    }

    /**
     * One transaction: the superseded versions of the pairs in {@code (from, to]}, the fence when it deleted any
     * (visible to readers together with the deletes), the cursor.
     */
    private long page(Connection connection, long groupId, long from, long to, long checkpoint)
        throws SQLException {
        connection.setAutoCommit(false);
        try {
            long deleted;
            try (PreparedStatement delete = connection.prepareStatement(DELETE_SUPERSEDED)) {
                delete.setLong(1, groupId);
                delete.setLong(2, from);
                delete.setLong(3, to);
                delete.setLong(4, groupId);
                delete.setLong(5, checkpoint);
                delete.setLong(6, groupId);
                deleted = delete.executeUpdate();
            }
            if (deleted > 0) {
                try (PreparedStatement fence = connection.prepareStatement(RAISE_FENCE)) {
                    fence.setLong(1, checkpoint);
                    fence.setLong(2, groupId);
                    fence.executeUpdate();
                }
            }
            try (PreparedStatement advance = connection.prepareStatement(ADVANCE)) {
                advance.setLong(1, to);
                advance.setLong(2, groupId);
                advance.executeUpdate();
            }
            connection.commit();
            return deleted;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
