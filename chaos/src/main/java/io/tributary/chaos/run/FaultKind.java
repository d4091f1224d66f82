package io.tributary.chaos.run;

/** What a fault does to the processes of one role. */
public enum FaultKind {
    /** {@code kill -9} of a random process of the role, restarted in its slot after a short random pause. */
    KILL,
    /** One more process of the role (a consumer group rebalance; a standby for ingest). */
    ADD,
    /** {@code SIGTERM} of a random process of the role, if it has more than one (a graceful rebalance). */
    REMOVE
}
