package io.tributary.storage.progress;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of a table's snapshot window.
 *
 * <pre>
 *   PLANNING --(chunks stored, plan and tasks published)--> SNAPSHOTTING --(every chunk done)--> DONE
 *      |  \------------------------(every chunk done before planning finished)----------------->  ^
 *      +--------------------------+--> FAILED (a permanent error: missing table, permission, bad value)
 *   SNAPSHOTTING -----------------+
 * </pre>
 * Any other transition is a bug and throws.
 */
public enum WindowStatus {
    /** Opened: the window marker may be in the WAL; chunks may be stored and tasks published. */
    PLANNING,
    /** Every chunk is stored and its task published; workers are reading them. */
    SNAPSHOTTING,
    /** Every chunk is done. */
    DONE,
    /** A permanent error stopped the window; {@code error} says why. */
    FAILED;

    /** The states this one may move to. */
    public Set<WindowStatus> next() {
        switch (this) {
            case PLANNING:
                return EnumSet.of(SNAPSHOTTING, DONE, FAILED);
            case SNAPSHOTTING:
                return EnumSet.of(DONE, FAILED);
            case DONE:
            case FAILED:
                return EnumSet.noneOf(WindowStatus.class);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalStateException if {@code target} is not a legal next state
     */
    public void requireTransitionTo(WindowStatus target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("Illegal snapshot window transition " + this + " -> " + target
                + " (legal: " + next() + ")");
        }
    }

    /** Whether the window is in progress (at most one per table). */
    public boolean isOpen() {
        return this == PLANNING || this == SNAPSHOTTING;
    }
}
