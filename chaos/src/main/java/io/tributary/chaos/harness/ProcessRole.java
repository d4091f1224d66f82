package io.tributary.chaos.harness;

import java.util.List;
import java.util.Locale;

/**
 * The process roles of a split deployment (docker-compose.yml's services), each with its {@code run} command.
 * The launcher's {@code all} and {@code replication} roles are not used here: every stage runs on its own, so a
 * fault hits exactly one stage.
 */
public enum ProcessRole {
    /** WAL capture and the snapshot planner; deploys the sync rules at start. One active, others stand by. */
    INGEST("ingest"),
    /** Snapshot chunk readers (consumer group over snapshot-tasks). */
    SNAPSHOT_WORKER("replication:snapshot"),
    /** The merge into {@code rows} (Kafka Streams). */
    STREAM_WORKER("replication:streaming"),
    /** Storage writers of every live sync rules group. */
    STORAGE_WRITER("storage");

    private final String cliName;

    ProcessRole(String cliName) {
        this.cliName = cliName;
    }

    /** The launcher's name of the role, e.g. {@code replication:snapshot}. */
    public String cliName() {
        return cliName;
    }

    /** The launcher arguments that run this role. */
    public List<String> command() {
        return List.of("run", "--role", cliName);
    }

    /** A short lower-case name for process names and logs, e.g. {@code snapshot-worker}. */
    public String shortName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
