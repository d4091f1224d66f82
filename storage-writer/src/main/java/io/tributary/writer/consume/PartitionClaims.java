package io.tributary.writer.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Taking a partition over: bumps its fencing token (creating its row at offset 0 for a new group) and reads where
 * to resume, in one short transaction. From then on a batch transaction of any previous owner fails its
 * {@code fencing_token} check, and a previous owner's transaction still running when the claim is taken finishes
 * first (the claim waits for its row lock) so the claim reads its offset. Stateless and thread-safe.
 */
public final class PartitionClaims {

    private static final String CLAIM = "INSERT INTO tributary.partition_offsets AS o"
        + " (group_id, partition, next_offset, fencing_token) VALUES (?, ?, 0, 1)"
        + " ON CONFLICT (group_id, partition) DO UPDATE SET fencing_token = o.fencing_token + 1"
        + " RETURNING next_offset, fencing_token, max_op_id";
    private static final String NEWEST_SEAL = "SELECT max(epoch) FROM tributary.sealed_epochs"
        + " WHERE group_id = ? AND partition = ?";

    private PartitionClaims() {
    }

    /** Claims {@code partition} of group {@code groupId} on {@code connection} (auto-commit off) and commits. */
    public static PartitionClaim claim(Connection connection, long groupId, int partition) throws SQLException {
        try {
            long nextOffset;
            long token;
            long maxOpId;
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setLong(1, groupId);
                claim.setInt(2, partition);
                try (ResultSet rs = claim.executeQuery()) {
                    rs.next();
                    nextOffset = rs.getLong(1);
                    token = rs.getLong(2);
                    maxOpId = rs.getLong(3);
                }
            }
            long sealed;
            try (PreparedStatement select = connection.prepareStatement(NEWEST_SEAL)) {
                select.setLong(1, groupId);
                select.setInt(2, partition);
                try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                    sealed = rs.getLong(1);
                    if (rs.wasNull()) {
                        sealed = -1;
                    }
                }
            }
            connection.commit();
            return new PartitionClaim(partition, token, nextOffset, maxOpId, sealed);
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }
}
