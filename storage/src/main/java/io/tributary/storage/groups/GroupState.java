package io.tributary.storage.groups;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of a sync rules group.
 *
 * <pre>
 *   PROCESSING --(first checkpoint covers all its tables)--> ACTIVE --(a newer group became ACTIVE)--> STOP
 *        |                                                                                            |
 *        +--------------------(superseded by a newer deploy before it became ACTIVE)------------------+
 *                                                                                                     v
 *                                                                  TERMINATED --(partitions dropped: cleared)
 * </pre>
 * Any other transition is a bug and throws.
 */
public enum GroupState {
    /** Replicating (snapshot or replay of {@code rows}) but not served to clients yet. */
    PROCESSING,
    /** Served to clients; at most one group is ACTIVE. */
    ACTIVE,
    /** No longer served or written; its writers stop. */
    STOP,
    /** Stopped for good; its storage may be cleared. */
    TERMINATED;

    /** The states this one may move to. */
    public Set<GroupState> next() {
        switch (this) {
            case PROCESSING:
                return EnumSet.of(ACTIVE, STOP);
            case ACTIVE:
                return EnumSet.of(STOP);
            case STOP:
                return EnumSet.of(TERMINATED);
            case TERMINATED:
                return EnumSet.noneOf(GroupState.class);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalStateException if {@code target} is not a legal next state
     */
    public void requireTransitionTo(GroupState target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("Illegal sync rules group transition " + this + " -> " + target
                + " (legal: " + next() + ")");
        }
    }

    /** Whether writers of a group in this state consume {@code rows}. */
    public boolean isLive() {
        return this == PROCESSING || this == ACTIVE;
    }
}
