package io.tributary.ingest.capture.publication;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A replication slot as {@code pg_replication_slots} shows it at one moment.
 *
 * @param name      the slot name
 * @param activePid the backend process reading it, if any
 */
public record SlotStatus(String name, OptionalInt activePid) {

    public SlotStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(activePid, "activePid");
    }

    /** Whether some process reads the slot now. */
    public boolean isActive() {
        return activePid.isPresent();
    }
}
