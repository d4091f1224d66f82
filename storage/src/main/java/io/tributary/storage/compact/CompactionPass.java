package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One compaction pass over a group's {@code bucket_data}: its connection, its budget of ops to read, the figures
 * of what it did and how far it raised the data fence. Not thread-safe; one per pass.
 */
final class CompactionPass {

    private static final String READ_CURSOR = "SELECT coalesce((SELECT bucket_cursor FROM tributary.compaction_state"
        + " WHERE group_id = ?), '')";
    private static final String WRITE_CURSOR = "INSERT INTO tributary.compaction_state (group_id, bucket_cursor)"
        + " VALUES (?, ?) ON CONFLICT (group_id) DO UPDATE SET bucket_cursor = excluded.bucket_cursor";

    final Connection connection;
    final long groupId;
    final String table;
    /**
     * The condition on {@code group_id} every statement on {@link #table} starts its WHERE clause with: the
     * partition's key is {@code (group_id, bucket, op_id)}, so without it a bucket's range of ops is no index range
     * and each page scans the whole partition.
     */
    final String groupKey;
    private long remaining;
    private long fencedTo;
    long buckets;
    long moved;
    long cleared;

    CompactionPass(Connection connection, long groupId, long passOps) {
        this.connection = connection;
        this.groupId = groupId;
        this.table = "tributary.bucket_data_g" + groupId;
        this.groupKey = "group_id = " + groupId;
        this.remaining = passOps;
    }

    /** True while the pass may read more ops. */
    boolean hasBudget() {
        return remaining > 0;
    }

    /** The most ops the next read may return: at most {@code page}, never beyond the pass's budget; &gt; 0. */
    int page(int page) {
        if (remaining <= 0) {
            throw new IllegalStateException("The compaction pass has no ops left to read");
        }
        return (int) Math.min(page, remaining);
    }

    /** Counts {@code ops} read against the budget. */
    void read(long ops) {
        remaining -= ops;
    }

    /**
     * Raises the group's data fence to {@code checkpoint}, committed before the rewrite that follows: a download
     * that read a rewritten op then finds it raised ({@link CompactionFence}). One statement per pass and
     * checkpoint.
     */
    void fence(long checkpoint) throws SQLException {
        if (checkpoint > fencedTo) {
            CompactionFence.raiseData(connection, groupId, checkpoint);
            fencedTo = checkpoint;
        }
    }

    /** The first bucket after {@code after} in name order (one index probe), null after the last. */
    String nextBucket(String after) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT bucket FROM " + table
            + " WHERE " + groupKey + " AND bucket > ? ORDER BY bucket LIMIT 1")) {
            select.setString(1, after);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The bucket the group's last pass finished last in the current round; '' when a round starts. */
    String cursor() throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(READ_CURSOR)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** Stores where the next pass resumes: after {@code bucket}; '' starts a new round. Auto-commit. */
    void saveCursor(String bucket) throws SQLException {
        try (PreparedStatement write = connection.prepareStatement(WRITE_CURSOR)) {
            write.setLong(1, groupId);
            write.setString(2, bucket);
            write.executeUpdate();
        }
    }
}
