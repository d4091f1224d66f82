package io.tributary.topics;

/**
 * How the stages' consumer groups learn of a membership change, shared by every group of ours (snapshot workers,
 * stream workers, storage writers).
 */
public final class GroupMembership {

    /**
     * {@code heartbeat.interval.ms} of our group members (Kafka's default: 3 s). Under the classic protocol a member
     * learns that its group rebalances only from its next heartbeat. When the loops of one process join a fresh
     * group a moment apart, the first completes the group alone and the second waits for that heartbeat, idle
     * while the first does all the work; so does a member added by a scale-out. Two heartbeats a second per member
     * are nothing to a broker; the session timeout (45 s) is unchanged. A deployment may still set its own in the
     * role's Kafka settings.
     *
     * <p>A rebalance may then land anywhere in a batch, which every stage tolerates: the stream threads commit
     * exactly once; a snapshot worker commits a task's offset once its chunk is published (a new owner skips a
     * done chunk), and dead-letters a task and commits its offset between two polls; a storage writer sends a dead
     * letter only right before the storage transaction that stores its record's offset.
     */
    public static final int HEARTBEAT_INTERVAL_MS = 500;

    private GroupMembership() {
    }
}
