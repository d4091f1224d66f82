package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The data fence of a group ({@code tributary.compaction_state.data_fence}): the highest published checkpoint a
 * compaction rewrote bucket ops up to. It only grows, and a compaction raises it before its first rewrite.
 *
 * <p>What a reader of ops may conclude: ops and checksums read at checkpoint C are those of C (PowerSync's
 * semantics) whenever the fence, read after every read of them, is at most C; when it is above C, some reads may
 * have seen a compaction up to a later checkpoint and only add up there, so C must not be completed (a later
 * checkpoint is published). Stateless and thread-safe.
 */
public final class CompactionFence {

    private static final String READ = "SELECT coalesce((SELECT data_fence FROM tributary.compaction_state"
        + " WHERE group_id = ?), 0)";
    private static final String RAISE = "INSERT INTO tributary.compaction_state (group_id, data_fence) VALUES (?, ?)"
        + " ON CONFLICT (group_id) DO UPDATE SET data_fence = greatest(compaction_state.data_fence,"
        + " excluded.data_fence)";

    private CompactionFence() {
    }

    /** The data fence of group {@code groupId}; 0 before any compaction rewrote an op. */
    public static long data(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(READ)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Raises the data fence of group {@code groupId} to {@code checkpoint} (never lowers it); auto-commit. */
    static void raiseData(Connection connection, long groupId, long checkpoint) throws SQLException {
        try (PreparedStatement raise = connection.prepareStatement(RAISE)) {
            raise.setLong(1, groupId);
            raise.setLong(2, checkpoint);
            raise.executeUpdate();
        }
    }
}
