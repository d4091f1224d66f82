package io.tributary.topics;

/**
 * How the stages' consumer groups learn of a membership change, shared by every group of ours (snapshot workers,
 * stream workers, storage writers).
 */
public final class GroupMembership {

    /**
     * {@code heartbeat.interval.ms} of our group members (Kafka's default: 3 s). Under the classic protocol a member
     * learns that its group rebalances only from its next heartbeat. When the loops of one process join a fresh
     * group a moment apart, the first completes the group alone and the second waits for that heartbeat; so did
     * each rebalance after a scale-out or a crash, with the new member idle the whole time. At a fresh start the
     * late rebalance revoked the storage writers' partitions while they wrote the first snapshot. Two heartbeats a
     * second per member are nothing to a broker; the session timeout (45 s) is unchanged. A deployment may still
     * set its own in the role's Kafka settings.
     */
    public static final int HEARTBEAT_INTERVAL_MS = 500;

    private GroupMembership() {
    }
}
