package io.tributary.storage.groups;

import java.util.Objects;
import java.util.Optional;

/**
 * A sync rules group as stored: its rules, state and newest published checkpoint.
 *
 * @param cleared whether its storage partitions were dropped (only for TERMINATED groups)
 */
public record SyncRulesGroup(long id, String content, GroupState state, Optional<Checkpoint> checkpoint,
                             boolean cleared) {

    public SyncRulesGroup {
        if (id < 1) {
            throw new IllegalArgumentException("Group ids start at 1: " + id);
        }
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(checkpoint, "checkpoint");
    }

    /** The consumer group of this group's storage writers over {@code rows}; predictable for autoscalers. */
    public String consumerGroup(String prefix) {
        return prefix + "storage-writer-g" + id;
    }
}
