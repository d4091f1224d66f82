package io.tributary.chaos.run;

import java.util.List;

/** What a fault does: to the processes of one role, or to the source while that role must cope with it. */
public enum FaultKind {
    /** {@code kill -9} of a random process of the role, restarted in its slot after a short random pause. */
    KILL,
    /** One more process of the role (a consumer group rebalance; a standby for ingest). */
    ADD,
    /** {@code SIGTERM} of a random process of the role, if it has more than one (a graceful rebalance). */
    REMOVE,
    /**
     * A source transaction that writes to every partition is committed and every ingest process is killed
     * ({@code kill -9}) at once, while the active one reads or sends that transaction; restarted after a short
     * random pause.
     */
    KILL_MID_TRANSACTION,
    /**
     * A new tenant schema whose table a wildcard rule matches, created with its first rows in one transaction and
     * written to by the workload from then on: its rows must reach no checkpoint before its snapshot is ready.
     */
    NEW_TABLE,
    /**
     * A snapshot worker's chunk read fails in the middle (its source backend terminated while the chunk query's
     * rows are fetched, {@link ChunkReadCut}): the chunk must be read again, its rows neither lost nor doubled.
     */
    CHUNK_READ_FAILURE;

    /** The kinds that act on processes only, which random extra faults are drawn from. */
    static final List<FaultKind> PROCESS = List.of(KILL, ADD, REMOVE);
}
