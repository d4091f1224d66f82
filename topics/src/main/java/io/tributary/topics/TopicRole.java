package io.tributary.topics;

import org.apache.kafka.common.config.TopicConfig;

/** The topics of one Tributary deployment, by what they are for. {@link TopicNames} gives their names. */
public enum TopicRole {

    /** WAL changes, barriers, window and truncate markers. Co-partitioned. */
    CHANGES("changes", TopicConfig.CLEANUP_POLICY_DELETE, true),

    /** Chunk tasks, in one partition range per {@code TaskPriority}. */
    SNAPSHOT_TASKS("snapshot-tasks", TopicConfig.CLEANUP_POLICY_DELETE, false),

    /** Rows read by chunks, chunk-done and table-plan markers. Co-partitioned. */
    SNAPSHOT_ROWS("snapshot-rows", TopicConfig.CLEANUP_POLICY_DELETE, true),

    /** The compacted table log: resolved rows and deletes, barriers, table-ready markers. Co-partitioned. */
    ROWS("rows", TopicConfig.CLEANUP_POLICY_COMPACT, true),

    /** Records no consumer could decode, with their origin in headers. */
    DEAD_LETTERS("dead-letters", TopicConfig.CLEANUP_POLICY_DELETE, false),

    /** Debezium's Kafka offset backing store for ingest: one compacted partition. */
    INGEST_OFFSETS("ingest-offsets", TopicConfig.CLEANUP_POLICY_COMPACT, false);

    private final String suffix;
    private final String cleanupPolicy;
    private final boolean coPartitioned;

    TopicRole(String suffix, String cleanupPolicy, boolean coPartitioned) {
        this.suffix = suffix;
        this.cleanupPolicy = cleanupPolicy;
        this.coPartitioned = coPartitioned;
    }

    /** The topic name after the deployment's prefix. */
    public String suffix() {
        return suffix;
    }

    /** The only {@code cleanup.policy} the topic may have ({@code delete} or {@code compact}). */
    public String cleanupPolicy() {
        return cleanupPolicy;
    }

    /** Whether the topic shares keys and partition count with the other co-partitioned topics. */
    public boolean isCoPartitioned() {
        return coPartitioned;
    }
}
