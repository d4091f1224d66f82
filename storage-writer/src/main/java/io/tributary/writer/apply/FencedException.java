package io.tributary.writer.apply;

/**
 * The writer's claim on a partition is no longer current: another writer claimed the partition (a newer fencing
 * token), so this writer is a zombie for it and its batch was rolled back. Not retriable; the partition must be
 * dropped until it is assigned again.
 */
public final class FencedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int partition;

    public FencedException(long groupId, int partition, long token) {
        super("Group " + groupId + ", partition " + partition + ": fencing token " + token
            + " is stale, another writer owns the partition; batch rolled back");
        this.partition = partition;
    }

    /** The partition that was lost. */
    public int partition() {
        return partition;
    }
}
