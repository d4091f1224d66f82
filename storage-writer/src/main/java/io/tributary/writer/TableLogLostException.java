package io.tributary.writer;

import java.util.Optional;

/**
 * The Kafka log a group's storage refers to is gone: {@code rows} is on another cluster or is another incarnation of
 * the topic than the one the group's offsets were read from, or a stored offset lies outside the log, or the group
 * fell so far behind that compaction may have removed tombstones it never read. Its writers cannot resume; the
 * group keeps serving its last checkpoint, and a replacement group rebuilds it (the message names the recovery).
 * Fatal: restarting the writer cannot help.
 */
public final class TableLogLostException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What was found to be lost. */
    public enum Loss {
        /** The whole log: another cluster or another topic id; the table log must be rebuilt by snapshot. */
        LOG,
        /** Records this group has not read yet (an offset outside the log, tombstones past their retention). */
        UNREAD_RECORDS
    }

    private final long groupId;
    private final Loss loss;
    private final Optional<TableLog> current;

    /** A loss found while Kafka holds {@code current} under the topic's name. */
    public TableLogLostException(long groupId, Loss loss, TableLog current, String message) {
        this(groupId, loss, Optional.of(current), message);
    }

    /** A loss found while Kafka holds {@code current} under the topic's name, or no topic of that name if empty. */
    public TableLogLostException(long groupId, Loss loss, Optional<TableLog> current, String message) {
        super(message);
        this.groupId = groupId;
        this.loss = loss;
        this.current = current;
    }

    /**
     * The log Kafka holds now under the topic's name; empty if the cluster has no such topic (a new cluster or a
     * deleted topic, not provisioned again yet).
     */
    public Optional<TableLog> current() {
        return current;
    }

    /** The sync rules group whose writers cannot resume. */
    public long groupId() {
        return groupId;
    }

    /** Whether the whole log is gone or only records the group had not read. */
    public Loss loss() {
        return loss;
    }
}
