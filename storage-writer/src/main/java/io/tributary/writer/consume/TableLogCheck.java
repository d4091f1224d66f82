package io.tributary.writer.consume;

import io.tributary.writer.TableLog;
import io.tributary.writer.TableLogLostException;
import io.tributary.writer.TableLogLostException.Loss;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a group's writers can resume where storage says they stopped: the group's stored offsets must refer to
 * the log Kafka holds now ({@code tributary.group_kafka_logs}: the cluster id and the topic id of {@code rows},
 * recorded by the group's first writer), lie inside that log, and not lag so far behind it that compaction may
 * have removed tombstones the group never read (unread records older than {@code delete.retention.ms}).
 *
 * <p>Stateless; runs in the caller's connection (auto-commit off) and commits.
 */
public final class TableLogCheck {

    private static final String RECORD = "INSERT INTO tributary.group_kafka_logs"
        + " (group_id, topic, cluster_id, topic_id) VALUES (?, ?, ?, ?) ON CONFLICT (group_id) DO NOTHING";
    private static final String SELECT = "SELECT topic, cluster_id, topic_id FROM tributary.group_kafka_logs"
        + " WHERE group_id = ?";
    private static final String OFFSETS = "SELECT partition, next_offset FROM tributary.partition_offsets"
        + " WHERE group_id = ?";

    private TableLogCheck() {
    }

    /**
     * Records {@code current} as group {@code groupId}'s log unless one is recorded, then checks the recorded log and
     * the stored offsets against Kafka (read through {@code consumer}).
     *
     * @param tombstoneRetention {@code delete.retention.ms} of the topic
     * @param now                the current time, against which record timestamps are compared
     * @throws TableLogLostException naming the group, the topic and partition, and both ids or offsets
     */
    public static void verify(Connection connection, long groupId, TableLog current, Consumer<?, ?> consumer,
                              int partitions, Duration tombstoneRetention, Instant now) throws SQLException {
        check(connection, groupId, current, consumer, partitions, Optional.of(tombstoneRetention), now);
    }

    /**
     * The checks of {@link #verify} that a running writer repeats ({@link TableLogWatch}): the recorded log is the
     * one Kafka holds and the stored offsets lie inside it. The tombstone retention is a question for a start only:
     * a running writer reads on.
     *
     * @throws TableLogLostException naming the group, the topic and partition, and both ids or offsets
     */
    public static void verifyRunning(Connection connection, long groupId, TableLog current, Consumer<?, ?> consumer,
                                     int partitions) throws SQLException {
        check(connection, groupId, current, consumer, partitions, Optional.empty(), Instant.now());
    }

    /**
     * The check when Kafka ({@code clusterId}) has no topic {@code topic}: a group that recorded a log has lost it
     * (a new cluster behind the same address, or the topic deleted), whether or not a topic of that name is created
     * again later. A group that recorded none has nothing to lose (a new deployment whose topics are not provisioned
     * yet): this returns and the caller waits for provisioning.
     *
     * @throws TableLogLostException naming the group, the log it recorded, the cluster now and the recovery
     */
    public static void verifyMissing(Connection connection, long groupId, String clusterId, String topic)
        throws SQLException {
        Optional<TableLog> recorded = recorded(connection, groupId);
        if (recorded.isEmpty()) {
            return;
        }
        String now = recorded.get().clusterId().equals(clusterId)
            ? "cluster " + clusterId + " (the same) has no topic " + topic
            : "Kafka now has cluster " + clusterId + " (cluster id " + recorded.get().clusterId() + " then, "
                + clusterId + " now) without a topic " + topic;
        throw new TableLogLostException(groupId, Loss.LOG, Optional.empty(), "Sync rules group " + groupId
            + " read " + recorded.get() + ", but " + now + ": the table log its offsets refer to is gone (a new"
            + " cluster, a deleted topic, a broker that lost its data). " + recovery(groupId, Loss.LOG));
    }

    private static void check(Connection connection, long groupId, TableLog current, Consumer<?, ?> consumer,
                              int partitions, Optional<Duration> retention, Instant now) throws SQLException {
        TableLog recorded = recordIfFirst(connection, groupId, current);
        if (!recorded.equals(current)) {
            throw new TableLogLostException(groupId, Loss.LOG, current, "Sync rules group " + groupId + " read "
                + recorded + ", but Kafka now has " + current + " ("
                + difference(recorded, current) + "): the table log its offsets refer to is gone (a new cluster,"
                + " a deleted topic, a broker that lost its data). " + recovery(groupId, Loss.LOG));
        }
        Map<Integer, Long> stored = storedOffsets(connection, groupId);
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(current.topic(), p));
        }
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(all);
        Map<TopicPartition, Long> ends = consumer.endOffsets(all);
        for (TopicPartition partition : all) {
            long next = stored.getOrDefault(partition.partition(), 0L);
            long start = starts.get(partition);
            long end = ends.get(partition);
            if (next > end || (next > 0 && next < start)) {
                throw new TableLogLostException(groupId, Loss.LOG, current, "Sync rules group " + groupId
                    + " stored offset " + next + " of " + partition + " (" + current + "), which is outside the"
                    + " log: it holds offsets " + start + " to " + end + " (records the group read or had yet to"
                    + " read are gone). " + recovery(groupId, Loss.LOG));
            }
        }
        if (retention.isPresent()) {
            checkRetention(groupId, current, consumer, all, stored, ends, retention.get(), now);
        }
    }

    private static void checkRetention(long groupId, TableLog current, Consumer<?, ?> consumer,
                                       List<TopicPartition> all, Map<Integer, Long> stored,
                                       Map<TopicPartition, Long> ends, Duration tombstoneRetention, Instant now) {
        Map<TopicPartition, Long> oldestKept = new HashMap<>();
        for (TopicPartition partition : all) {
            oldestKept.put(partition, now.minus(tombstoneRetention).toEpochMilli());
        }
        Map<TopicPartition, OffsetAndTimestamp> firstWithinRetention = consumer.offsetsForTimes(oldestKept);
        for (TopicPartition partition : all) {
            long next = stored.getOrDefault(partition.partition(), 0L);
            long end = ends.get(partition);
            Optional<Long> withinRetention = Optional.ofNullable(firstWithinRetention.get(partition))
                .map(OffsetAndTimestamp::offset);
            boolean unreadOld = next < end && withinRetention.map(first -> next < first).orElse(true);
            if (next > 0 && unreadOld) {
                throw new TableLogLostException(groupId, Loss.UNREAD_RECORDS, current, "Sync rules group "
                    + groupId + " stopped at offset " + next + " of " + partition + " and the records from there on"
                    + " are older than the topic's delete.retention.ms (" + tombstoneRetention + "): compaction may"
                    + " have removed deletes the group never read, so resuming could keep deleted rows. "
                    + recovery(groupId, Loss.UNREAD_RECORDS));
            }
        }
    }

    /** What happens next and the one command that does it. */
    static String recovery(long groupId, Loss loss) {
        String rebuild = loss == Loss.LOG
            ? "rebuilds the table log by snapshotting every table again and deploys a replacement of the group"
            : "deploys a replacement of the group that replays the log from its start";
        return "Group " + groupId + " keeps serving its last checkpoint until its replacement is complete; recovery "
            + rebuild + ": `tributary recover --config FILE` (a `tributary run` that runs the planner does it at"
            + " start)";
    }

    private static String difference(TableLog recorded, TableLog current) {
        if (!recorded.clusterId().equals(current.clusterId())) {
            return "cluster id " + recorded.clusterId() + " then, " + current.clusterId() + " now";
        }
        if (!recorded.topic().equals(current.topic())) {
            return "topic " + recorded.topic() + " then, " + current.topic() + " now";
        }
        return "topic id " + recorded.topicId() + " then, " + current.topicId() + " now";
    }

    private static TableLog recordIfFirst(Connection connection, long groupId, TableLog current)
        throws SQLException {
        try {
            try (PreparedStatement insert = connection.prepareStatement(RECORD)) {
                insert.setLong(1, groupId);
                insert.setString(2, current.topic());
                insert.setString(3, current.clusterId());
                insert.setString(4, current.topicId());
                insert.executeUpdate();
            }
            TableLog recorded;
            try (PreparedStatement select = connection.prepareStatement(SELECT)) {
                select.setLong(1, groupId);
                try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                    recorded = new TableLog(rs.getString(2), rs.getString(1), rs.getString(3));
                }
            }
            connection.commit();
            return recorded;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private static Optional<TableLog> recorded(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setLong(1, groupId);
            Optional<TableLog> recorded;
            try (ResultSet rs = select.executeQuery()) {
                recorded = rs.next()
                    ? Optional.of(new TableLog(rs.getString(2), rs.getString(1), rs.getString(3)))
                    : Optional.empty();
            }
            connection.commit();
            return recorded;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private static Map<Integer, Long> storedOffsets(Connection connection, long groupId) throws SQLException {
        Map<Integer, Long> offsets = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(OFFSETS)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    offsets.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        connection.commit();
        return offsets;
    }
}
