package io.tributary.topics;

import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Partition counts and topic configs of one deployment.
 *
 * <ul>
 *   <li>{@code changes}, {@code snapshot-rows} and {@code rows} are co-partitioned: each has {@link #partitions()}
 *       partitions (the provisioner verifies it), so partition {@code p} of all three holds the same keys.</li>
 *   <li>{@code snapshot-tasks} has one range of {@link #taskPartitionsPerPriority()} partitions per
 *       {@link TaskPriority}, in declaration order: {@code [0, n)} for {@code ACTIVE_SNAPSHOT}, {@code [n, 2n)}
 *       for {@code REPROCESS_SNAPSHOT} ({@link #partitionsFor(TaskPriority)}).</li>
 *   <li>{@code rows} and {@code ingest-offsets} are compacted; the others are deleted after {@link #retention()}.
 *       {@code rows} keeps every version for at least {@link #rowsMinCompactionLag()} and deletes for at least
 *       {@link #rowsTombstoneRetention()}: a storage writer group lagging behind by more than that could miss a
 *       delete, so the tombstone retention must exceed any tolerated consumer lag or outage.</li>
 *   <li>{@code ingest-offsets} has one partition (Debezium's offset store); {@code dead-letters}
 *       {@link #deadLetterPartitions()}.</li>
 * </ul>
 *
 * @param partitions                the co-partitioned count, {@code >= 1}
 * @param taskPartitionsPerPriority partitions of {@code snapshot-tasks} per priority, {@code >= 1}
 * @param deadLetterPartitions      partitions of {@code dead-letters}, {@code >= 1}
 * @param replicationFactor         replication factor of every topic, {@code >= 1}
 * @param retention                 {@code retention.ms} of the delete-policy topics, positive
 * @param rowsMinCompactionLag      {@code min.compaction.lag.ms} of {@code rows}, not negative
 * @param rowsTombstoneRetention    {@code delete.retention.ms} of {@code rows}, positive
 */
public record TopicLayout(int partitions, int taskPartitionsPerPriority, int deadLetterPartitions,
                          short replicationFactor, Duration retention, Duration rowsMinCompactionLag,
                          Duration rowsTombstoneRetention) {

    /** Default {@link #retention()}: 7 days. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    /** Default {@link #rowsMinCompactionLag()}: 1 hour. */
    public static final Duration DEFAULT_ROWS_MIN_COMPACTION_LAG = Duration.ofHours(1);
    /** Default {@link #rowsTombstoneRetention()}: 7 days. */
    public static final Duration DEFAULT_ROWS_TOMBSTONE_RETENTION = Duration.ofDays(7);

    public TopicLayout {
        if (partitions < 1 || taskPartitionsPerPriority < 1 || deadLetterPartitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("Partition counts and the replication factor must be >= 1, got"
                + " partitions=" + partitions + ", taskPartitionsPerPriority=" + taskPartitionsPerPriority
                + ", deadLetterPartitions=" + deadLetterPartitions + ", replicationFactor=" + replicationFactor);
        }
        requirePositive("retention", retention);
        Objects.requireNonNull(rowsMinCompactionLag, "rowsMinCompactionLag");
        if (rowsMinCompactionLag.isNegative()) {
            throw new IllegalArgumentException("rowsMinCompactionLag must not be negative: " + rowsMinCompactionLag);
        }
        requirePositive("rowsTombstoneRetention", rowsTombstoneRetention);
    }

    private static void requirePositive(String what, Duration duration) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
    }

    /** A layout with default retention and compaction settings and one dead-letter partition. */
    public static TopicLayout of(int partitions, int taskPartitionsPerPriority, short replicationFactor) {
        return new TopicLayout(partitions, taskPartitionsPerPriority, 1, replicationFactor, DEFAULT_RETENTION,
            DEFAULT_ROWS_MIN_COMPACTION_LAG, DEFAULT_ROWS_TOMBSTONE_RETENTION);
    }

    /** This layout with {@code retention} for the delete-policy topics. */
    public TopicLayout withRetention(Duration newRetention) {
        return new TopicLayout(partitions, taskPartitionsPerPriority, deadLetterPartitions, replicationFactor,
            newRetention, rowsMinCompactionLag, rowsTombstoneRetention);
    }

    /** This layout with {@code lag} as {@code min.compaction.lag.ms} of {@code rows}. */
    public TopicLayout withRowsMinCompactionLag(Duration lag) {
        return new TopicLayout(partitions, taskPartitionsPerPriority, deadLetterPartitions, replicationFactor,
            retention, lag, rowsTombstoneRetention);
    }

    /** This layout with {@code tombstoneRetention} as {@code delete.retention.ms} of {@code rows}. */
    public TopicLayout withRowsTombstoneRetention(Duration tombstoneRetention) {
        return new TopicLayout(partitions, taskPartitionsPerPriority, deadLetterPartitions, replicationFactor,
            retention, rowsMinCompactionLag, tombstoneRetention);
    }

    /** This layout with {@code count} dead-letter partitions. */
    public TopicLayout withDeadLetterPartitions(int count) {
        return new TopicLayout(partitions, taskPartitionsPerPriority, count, replicationFactor, retention,
            rowsMinCompactionLag, rowsTombstoneRetention);
    }

    /** The partition count of {@code snapshot-tasks}: one range per priority. */
    public int snapshotTaskPartitions() {
        return taskPartitionsPerPriority * TaskPriority.values().length;
    }

    /** The partitions of {@code snapshot-tasks} that hold tasks of {@code priority}. */
    public PartitionRange partitionsFor(TaskPriority priority) {
        int first = priority.ordinal() * taskPartitionsPerPriority;
        return new PartitionRange(first, first + taskPartitionsPerPriority);
    }

    /**
     * The priority of the tasks in partition {@code taskPartition} of {@code snapshot-tasks}.
     *
     * @throws IllegalArgumentException if the partition is outside the topic
     */
    public TaskPriority priorityOf(int taskPartition) {
        if (taskPartition < 0 || taskPartition >= snapshotTaskPartitions()) {
            throw new IllegalArgumentException("snapshot-tasks has partitions [0, " + snapshotTaskPartitions()
                + "), got " + taskPartition);
        }
        return TaskPriority.values()[taskPartition / taskPartitionsPerPriority];
    }

    /** The partition count of the topic of {@code role}. */
    public int partitionsOf(TopicRole role) {
        switch (role) {
            case CHANGES:
            case SNAPSHOT_ROWS:
            case ROWS:
                return partitions;
            case SNAPSHOT_TASKS:
                return snapshotTaskPartitions();
            case DEAD_LETTERS:
                return deadLetterPartitions;
            case INGEST_OFFSETS:
                return 1;
            default:
                throw new IllegalArgumentException("Unknown topic role " + role);
        }
    }

    /** The topic configs the topic of {@code role} is created with. */
    public Map<String, String> configsOf(TopicRole role) {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, role.cleanupPolicy());
        if (role == TopicRole.ROWS) {
            configs.put(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, Long.toString(rowsMinCompactionLag.toMillis()));
            configs.put(TopicConfig.DELETE_RETENTION_MS_CONFIG, Long.toString(rowsTombstoneRetention.toMillis()));
        } else if (role.cleanupPolicy().equals(TopicConfig.CLEANUP_POLICY_DELETE)) {
            configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.toMillis()));
        }
        return configs;
    }

    /** How the topic of {@code role} must be created. */
    public TopicSpec spec(TopicNames names, TopicRole role) {
        return new TopicSpec(role, names.name(role), partitionsOf(role), replicationFactor, configsOf(role));
    }

    /** Every topic of the deployment, in {@link TopicRole} order. */
    public List<TopicSpec> specs(TopicNames names) {
        List<TopicSpec> specs = new ArrayList<>();
        for (TopicRole role : TopicRole.values()) {
            specs.add(spec(names, role));
        }
        return specs;
    }
}
