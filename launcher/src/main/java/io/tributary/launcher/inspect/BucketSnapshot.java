package io.tributary.launcher.inspect;

import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What a client would download from a group at its current checkpoint: the ops with {@code op_id <=} the
 * checkpoint, reduced per bucket and row (the last op of a row wins; a REMOVE drops it), read in one
 * REPEATABLE READ transaction so checkpoint and ops agree. Streams through a cursor: constant memory.
 */
public final class BucketSnapshot {

    /** Receives the reduced content, bucket by bucket, rows sorted by (table, id). */
    public interface Visitor {
        void start(SyncRulesGroup group, Checkpoint checkpoint);

        void row(String bucket, String table, String id, String data);

        void bucketEnd(String bucket, long checksum, long count);
    }

    /** Why there is nothing to show. */
    public static final class NoCheckpointException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoCheckpointException(String message) {
            super(message);
        }
    }

    private static final short PUT = 1;

    private BucketSnapshot() {
    }

    /**
     * Reads a group's buckets.
     *
     * @param groupId empty = the ACTIVE group, else the newest group
     * @param bucketPrefix only buckets whose name starts with it
     * @throws NoCheckpointException if the group has no checkpoint yet (or does not exist)
     */
    public static void read(Connection storage, Optional<Long> groupId, String bucketPrefix, Visitor visitor)
        throws SQLException {
        boolean autoCommit = storage.getAutoCommit();
        storage.setAutoCommit(false);
        storage.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            SyncRulesGroup group = resolve(storage, groupId);
            Checkpoint checkpoint = group.checkpoint().orElseThrow(() -> new NoCheckpointException(
                "Sync rules group " + group.id() + " (" + group.state() + ") has no checkpoint yet: its first "
                    + "snapshot is still running; try again when `tributary status` shows a checkpoint"));
            visitor.start(group, checkpoint);
            try (PreparedStatement select = storage.prepareStatement(
                "SELECT bucket, source_table, row_id, op, checksum, data FROM tributary.bucket_data"
                    + " WHERE group_id = ? AND op_id <= ? AND bucket LIKE ? ESCAPE '\\'"
                    + " ORDER BY bucket COLLATE \"C\", source_table COLLATE \"C\", row_id COLLATE \"C\", op_id")) {
                select.setFetchSize(5_000);
                select.setLong(1, group.id());
                select.setLong(2, checkpoint.opId());
                select.setString(3, bucketPrefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
                try (ResultSet rs = select.executeQuery()) {
                    reduce(rs, visitor);
                }
            }
            storage.commit();
        } catch (SQLException | RuntimeException e) {
            storage.rollback();
            throw e;
        } finally {
            storage.setAutoCommit(autoCommit);
        }
    }

    private static SyncRulesGroup resolve(Connection storage, Optional<Long> groupId) throws SQLException {
        if (groupId.isPresent()) {
            return SyncRulesGroups.find(storage, groupId.get())
                .orElseThrow(() -> new NoCheckpointException("There is no sync rules group " + groupId.get()));
        }
        var groups = SyncRulesGroups.list(storage);
        return groups.stream().filter(g -> g.state() == io.tributary.storage.groups.GroupState.ACTIVE).findFirst()
            .or(() -> groups.isEmpty() ? Optional.empty() : Optional.of(groups.get(groups.size() - 1)))
            .orElseThrow(() -> new NoCheckpointException("No sync rules are deployed yet (tributary deploy)"));
    }

    private static void reduce(ResultSet rs, Visitor visitor) throws SQLException {
        LastOp row = null;
        long checksum = 0;
        long count = 0;
        while (rs.next()) {
            LastOp op = new LastOp(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getShort(4) == PUT ? Optional.of(rs.getString(6)) : Optional.empty(), rs.getLong(5));
            if (row != null && !row.sameRow(op)) {
                if (row.data().isPresent()) {
                    visitor.row(row.bucket(), row.table(), row.id(), row.data().get());
                    checksum = (checksum + row.checksum()) & 0xFFFF_FFFFL;
                    count++;
                }
                if (!row.bucket().equals(op.bucket())) {
                    visitor.bucketEnd(row.bucket(), checksum, count);
                    checksum = 0;
                    count = 0;
                }
            }
            row = op;
        }
        if (row != null) {
            if (row.data().isPresent()) {
                visitor.row(row.bucket(), row.table(), row.id(), row.data().get());
                checksum = (checksum + row.checksum()) & 0xFFFF_FFFFL;
                count++;
            }
            visitor.bucketEnd(row.bucket(), checksum, count);
        }
    }

    /** The newest op of a row seen so far: its data if a PUT, empty if a REMOVE. */
    private record LastOp(String bucket, String table, String id, Optional<String> data, long checksum) {
        boolean sameRow(LastOp other) {
            return bucket.equals(other.bucket) && table.equals(other.table) && id.equals(other.id);
        }
    }
}
