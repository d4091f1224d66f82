package io.tributary.ingest.capture;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of an {@link IngestService}.
 *
 * <pre>
 *   NEW --start--> STARTING --slot free--> ACTIVE --engine stopped, retriable--> STARTING
 *                     |   ^                   |
 *                     v   |                   +--slot taken by another reader--> STANDBY
 *                   STANDBY (slot active for another process; retried with backoff)
 *   any but NEW --close--> STOPPED;   STARTING / STANDBY / ACTIVE --fatal error--> FAILED
 * </pre>
 * Any other transition is a bug and throws.
 */
public enum IngestState {
    /** Created, not started. */
    NEW,
    /** Checking the source, preparing the publication and slot, or starting the engine. */
    STARTING,
    /** Another process reads the replication slot; waiting to take over. */
    STANDBY,
    /** Reading the slot and publishing to {@code changes}. */
    ACTIVE,
    /** Stopped for good by an error someone must fix ({@link IngestService#failure()}). */
    FAILED,
    /** Closed. */
    STOPPED;

    /** The states this one may move to. */
    public Set<IngestState> next() {
        switch (this) {
            case NEW:
                return EnumSet.of(STARTING, STOPPED);
            case STARTING:
                return EnumSet.of(STANDBY, ACTIVE, FAILED, STOPPED);
            case STANDBY:
                return EnumSet.of(STARTING, FAILED, STOPPED);
            case ACTIVE:
                return EnumSet.of(STARTING, STANDBY, FAILED, STOPPED);
            case FAILED:
            case STOPPED:
                return EnumSet.noneOf(IngestState.class);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalStateException if {@code target} is not a legal next state
     */
    public void requireTransitionTo(IngestState target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("Illegal ingest transition " + this + " -> " + target + " (legal: "
                + next() + ")");
        }
    }

    /** Whether no further transition is possible. */
    public boolean isFinal() {
        return this == FAILED || this == STOPPED;
    }
}
