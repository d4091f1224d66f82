package io.tributary.topics.messages;

/**
 * Which queue a chunk task waits in. docs/design.md orders all work as 1. snapshots for active sync rules,
 * 2. streaming for active sync rules, 3. snapshots for reprocessing sync rules, 4. streaming (replay) for
 * reprocessing sync rules; only the snapshot levels are task queues (streaming is a consumer of {@code changes}
 * or {@code rows}, prioritised by pausing it), so only they are values here. {@link #rank()} gives the global
 * level. Each priority owns a partition range of {@code snapshot-tasks} (see {@code TopicLayout#partitionsFor}).
 */
public enum TaskPriority {

    /** A snapshot some active sync rules group waits for (its checkpoints are held until it is done). */
    ACTIVE_SNAPSHOT(1, "active-snapshot"),

    /** A snapshot for sync rules that are still being reprocessed. */
    REPROCESS_SNAPSHOT(3, "reprocess-snapshot");

    private final int rank;
    private final String wireName;

    TaskPriority(int rank, String wireName) {
        this.rank = rank;
        this.wireName = wireName;
    }

    /** The global priority level of docs/design.md: 1 is the highest. */
    public int rank() {
        return rank;
    }

    /** The name in message envelopes. */
    public String wireName() {
        return wireName;
    }

    /** Whether work of this priority must be done before work of {@code other}. */
    public boolean isHigherThan(TaskPriority other) {
        return rank < other.rank;
    }

    /**
     * The priority with envelope name {@code wireName}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static TaskPriority fromWireName(String wireName) {
        for (TaskPriority priority : values()) {
            if (priority.wireName.equals(wireName)) {
                return priority;
            }
        }
        throw new IllegalArgumentException("Unknown task priority '" + wireName + "'");
    }
}
