package io.tributary.writer.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;

/**
 * The aligned-barrier gate of one writer, per partition: a partition whose newest seal is {@code s} (committed, or
 * inserted earlier in the same transaction) may allocate op ids for its later records only once every
 * <em>other</em> partition of the group sealed {@code >= s}. Its own seal of {@code s} need not be committed yet:
 * its ops of epochs {@code <= s} were allocated before, in the same transaction or an earlier one, so the rule of
 * {@code CheckpointMath} (every op of an epoch {@code > k} is larger than every op of epochs {@code <= k}) still
 * holds when one transaction seals several epochs of its partition.
 *
 * <p>Keeps the newest seal per partition as last read, or as committed or read by another loop of the process
 * ({@link ProcessSeals}); they only grow, so a cached value that allows a batch is never wrong, and the seals are
 * re-read (outside any batch transaction) only when they block one. Not thread-safe: owned by one committer
 * thread.
 */
final class PeerSeals {

    /**
     * One backward probe of the primary key {@code (group_id, partition, epoch)} per partition: seals pile up while
     * a snapshot holds the checkpoint (they are pruned only behind a published one), and a blocked writer re-reads
     * every {@code gateRecheck}, so the cost must not grow with them.
     */
    private static final String NEWEST_SEALS = "SELECT p, (SELECT max(epoch) FROM tributary.sealed_epochs s"
        + " WHERE s.group_id = ? AND s.partition = p) FROM generate_series(0, ? - 1) AS p";

    private final long groupId;
    private final long[] newest;
    private final ProcessSeals process;

    /** The gate of group {@code groupId} over {@code partitions} partitions, none sealed as far as it knows. */
    PeerSeals(long groupId, int partitions) {
        this(groupId, new ProcessSeals(partitions));
    }

    /**
     * The gate of group {@code groupId} over {@code process}'s partitions, sharing the seals it learns with the
     * other loops of its process through {@code process} (and taking theirs).
     */
    PeerSeals(long groupId, ProcessSeals process) {
        this.groupId = groupId;
        this.process = process;
        this.newest = new long[process.partitions()];
        Arrays.fill(newest, -1);
    }

    /**
     * Whether {@code partition}, whose newest seal is {@code sealedEpoch} ({@code -1}: none), may allocate op ids:
     * every other partition's newest seal as last read is {@code >= sealedEpoch}.
     */
    boolean allows(int partition, long sealedEpoch) {
        return allows(partition, sealedEpoch, Map.of());
    }

    /**
     * Whether {@code partition}, whose newest seal is {@code sealedEpoch}, may allocate op ids after the seals
     * {@code planned} earlier in the same transaction (newest epoch per partition): every other partition's newest
     * seal, as last read or planned, is {@code >= sealedEpoch}.
     */
    boolean allows(int partition, long sealedEpoch, Map<Integer, Long> planned) {
        for (int p = 0; p < newest.length; p++) {
            if (p != partition && Math.max(newest[p], planned.getOrDefault(p, -1L)) < sealedEpoch) {
                newest[p] = Math.max(newest[p], process.newest(p));
                if (Math.max(newest[p], planned.getOrDefault(p, -1L)) < sealedEpoch) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Records that {@code partition} sealed {@code epoch} (e.g. this writer committed it, or storage says so) and
     * tells the other loops of the process.
     */
    void sealed(int partition, long epoch) {
        if (partition >= 0 && partition < newest.length) {
            newest[partition] = Math.max(newest[partition], epoch);
            process.sealed(partition, epoch);
        }
    }

    /** Re-reads the seals in a short transaction of its own on {@code connection} (auto-commit off). */
    void refresh(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(NEWEST_SEALS)) {
            select.setLong(1, groupId);
            select.setInt(2, newest.length);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    long epoch = rs.getLong(2);
                    if (!rs.wasNull()) {
                        sealed(rs.getInt(1), epoch);
                    }
                }
            }
        } finally {
            connection.commit();
        }
    }
}
