package io.tributary.writer.checkpoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The aligned-barrier gate of one writer ({@link CheckpointMath} rule 2): a partition that sealed epoch {@code s}
 * may allocate op ids for its later records only once every partition of the group sealed {@code >= s}.
 *
 * <p>Keeps the smallest newest seal over all partitions as last read; it only grows, so a cached value that allows
 * a batch is never wrong, and the gate is re-read (outside any batch transaction) only when it blocks one. Not
 * thread-safe: owned by one committer thread.
 */
public final class SealGate {

    private static final String NEWEST_SEALS = "SELECT partition, max(epoch) FROM tributary.sealed_epochs"
        + " WHERE group_id = ? GROUP BY partition";

    private final long groupId;
    private final int partitions;
    private long minNewestSeal = -1;

    /** The gate of group {@code groupId} over {@code partitions} partitions. */
    public SealGate(long groupId, int partitions) {
        this.groupId = groupId;
        this.partitions = partitions;
    }

    /** Whether a partition whose newest seal is {@code sealedEpoch} ({@code -1}: none) may allocate op ids. */
    public boolean allows(long sealedEpoch) {
        return sealedEpoch <= minNewestSeal;
    }

    /** The smallest newest seal over all partitions as last read, {@code -1} if some partition has none. */
    public long minNewestSeal() {
        return minNewestSeal;
    }

    /**
     * Re-reads the seals in a short transaction of its own on {@code connection} (auto-commit off).
     *
     * @return the new smallest newest seal
     */
    public long refresh(Connection connection) throws SQLException {
        Map<Integer, Long> newest = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(NEWEST_SEALS)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    newest.put(rs.getInt(1), rs.getLong(2));
                }
            }
        } finally {
            connection.commit();
        }
        minNewestSeal = Math.max(minNewestSeal, CheckpointMath.minNewestSeal(newest, partitions));
        return minNewestSeal;
    }
}
