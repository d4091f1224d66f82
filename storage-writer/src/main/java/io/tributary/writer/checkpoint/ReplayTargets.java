package io.tributary.writer.checkpoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.postgresql.PGConnection;

/**
 * A group's replay targets ({@code tributary.replay_targets}): per partition of {@code rows}, where the log ended
 * when the group's writers first started. Its first checkpoint waits until every partition's barrier of the
 * checkpoint's epoch lies at or after its target ({@link CheckpointMath#heldByReplayTargets}), so a replay never
 * publishes a barrier that compaction left behind newer versions of the keys before it.
 *
 * <p>Stateless; each call runs in the caller's connection (auto-commit off) and commits.
 */
public final class ReplayTargets {

    private static final String HAS_CHECKPOINT_OR_TARGETS = "SELECT checkpoint_epoch IS NOT NULL OR EXISTS"
        + " (SELECT 1 FROM tributary.replay_targets t WHERE t.group_id = g.group_id)"
        + " FROM tributary.sync_rules g WHERE g.group_id = ?";
    private static final String INSERT = "INSERT INTO tributary.replay_targets (group_id, partition, end_offset)"
        + " SELECT ?, u.p, u.e FROM unnest(?::int[], ?::bigint[]) AS u(p, e) ON CONFLICT DO NOTHING";
    private static final String SELECT = "SELECT partition, end_offset FROM tributary.replay_targets"
        + " WHERE group_id = ?";

    private ReplayTargets() {
    }

    /**
     * Stores the end offsets of {@code topic}'s {@code partitions} partitions as {@code consumer} (read-committed)
     * sees them now as the targets of group {@code groupId}, unless the group published a checkpoint already or has
     * targets (a writer started before: the first one's stand).
     *
     * @return whether this call stored them
     */
    public static boolean captureIfFirst(Connection connection, long groupId, Consumer<?, ?> consumer, String topic,
                                         int partitions) throws SQLException {
        try {
            try (PreparedStatement select = connection.prepareStatement(HAS_CHECKPOINT_OR_TARGETS)) {
                select.setLong(1, groupId);
                try (ResultSet rs = select.executeQuery()) {
                    if (!rs.next() || rs.getBoolean(1)) {
                        connection.commit();
                        return false;
                    }
                }
            }
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(all);
            int[] ps = new int[partitions];
            long[] offsets = new long[partitions];
            for (int p = 0; p < partitions; p++) {
                ps[p] = p;
                offsets[p] = ends.get(all.get(p));
            }
            PGConnection pg = connection.unwrap(PGConnection.class);
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                insert.setLong(1, groupId);
                insert.setArray(2, pg.createArrayOf("int4", ps));
                insert.setArray(3, pg.createArrayOf("int8", offsets));
                insert.executeUpdate();
            }
            connection.commit();
            return true;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    /** The targets of group {@code groupId}, partition to end offset; empty if it has none. */
    static Map<Integer, Long> read(Connection connection, long groupId) throws SQLException {
        Map<Integer, Long> targets = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    targets.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return targets;
    }
}
