package io.tributary.launcher.env;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a process runs. Roles compose: {@code all} is everything in one process (the embedded default); the
 * others let each stage scale on its own.
 */
public enum Role {
    /** Everything: ingest, planner, snapshot workers, stream workers, storage writers, the sync API. */
    ALL("all"),
    /** Capture and merge: ingest, planner, snapshot workers and stream workers (no storage writers). */
    REPLICATION("replication"),
    /** Snapshot workers only: a consumer group over snapshot-tasks. */
    REPLICATION_SNAPSHOT("replication:snapshot"),
    /** Stream workers only: the merge into rows. */
    REPLICATION_STREAMING("replication:streaming"),
    /** WAL capture and the snapshot planner (one active instance; others stand by). */
    INGEST("ingest"),
    /** Storage writers of every live sync rules group, and the group lifecycle. */
    STORAGE("storage"),
    /** The sync API: serves the sync protocol to clients from storage (stateless; any number of processes). */
    API("api");

    /** The parts a role can be made of. */
    public enum Part { INGEST, PLANNER, SNAPSHOT_WORKERS, STREAM_WORKERS, STORAGE_WRITERS, API }

    private final String cliName;

    Role(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the command line, e.g. {@code replication:snapshot}. */
    public String cliName() {
        return cliName;
    }

    /** The parts this role runs. */
    public Set<Part> parts() {
        switch (this) {
            case ALL:
                return EnumSet.allOf(Part.class);
            case REPLICATION:
                return EnumSet.of(Part.INGEST, Part.PLANNER, Part.SNAPSHOT_WORKERS, Part.STREAM_WORKERS);
            case REPLICATION_SNAPSHOT:
                return EnumSet.of(Part.SNAPSHOT_WORKERS);
            case REPLICATION_STREAMING:
                return EnumSet.of(Part.STREAM_WORKERS);
            case INGEST:
                return EnumSet.of(Part.INGEST, Part.PLANNER);
            case STORAGE:
                return EnumSet.of(Part.STORAGE_WRITERS);
            case API:
                return EnumSet.of(Part.API);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * The role named on the command line.
     *
     * @throws IllegalArgumentException naming the legal roles
     */
    public static Role fromCliName(String name) {
        return Arrays.stream(values()).filter(role -> role.cliName.equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("Unknown role '" + name + "'; use one of "
                + Arrays.stream(values()).map(Role::cliName).collect(Collectors.joining(", "))));
    }
}
