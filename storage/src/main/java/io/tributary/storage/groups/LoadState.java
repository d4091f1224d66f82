package io.tributary.storage.groups;

import java.util.EnumSet;
import java.util.Set;

/**
 * Whether a group's {@code bucket_data_g<id>} carries its primary key ({@code sync_rules.load_state}).
 *
 * <pre>
 *   NEW --(its first writer starts before any checkpoint: detached, key dropped)--> LOADING
 *    |                                                                                |
 *    +--(first checkpoint published without a load)--> INDEXED <--(key built, attached again,
 *                                                                  in the first checkpoint's transaction)
 * </pre>
 * Any other transition is a bug and throws. No checkpoint is ever published while a group is LOADING.
 */
public enum LoadState {
    /** As created: attached to {@code bucket_data}, with its key; a writer may still start a load. */
    NEW,
    /** Detached from {@code bucket_data}, without its key: the writers COPY into it, nothing reads it. */
    LOADING,
    /** Attached, with its key, for good. */
    INDEXED;

    /** The states this one may move to. */
    public Set<LoadState> next() {
        switch (this) {
            case NEW:
                return EnumSet.of(LOADING, INDEXED);
            case LOADING:
                return EnumSet.of(INDEXED);
            case INDEXED:
                return EnumSet.noneOf(LoadState.class);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalStateException if {@code target} is not a legal next state
     */
    public void requireTransitionTo(LoadState target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("Illegal load state transition " + this + " -> " + target
                + " (legal: " + next() + ")");
        }
    }
}
