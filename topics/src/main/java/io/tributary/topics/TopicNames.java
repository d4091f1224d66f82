package io.tributary.topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The topic names of one deployment: a prefix followed by the role's suffix, e.g. {@code tributary.changes}.
 * Several deployments (or tests) share one cluster by using different prefixes.
 *
 * @param prefix the prefix, possibly empty; only characters legal in topic names ({@code [a-zA-Z0-9._-]})
 */
public record TopicNames(String prefix) {

    /** The longest topic name Kafka accepts. */
    private static final int MAX_NAME_LENGTH = 249;
    private static final int LONGEST_SUFFIX = "snapshot-tasks".length();

    /** The default prefix, {@code tributary.}. */
    public static final String DEFAULT_PREFIX = "tributary.";

    public TopicNames {
        Objects.requireNonNull(prefix, "prefix");
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            boolean legal = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '.' || c == '_' || c == '-';
            if (!legal) {
                throw new IllegalArgumentException("A topic prefix may only contain [a-zA-Z0-9._-], got '" + prefix
                    + "'");
            }
        }
        if (prefix.length() + LONGEST_SUFFIX > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("Topic prefix too long (topic names are at most " + MAX_NAME_LENGTH
                + " characters): '" + prefix + "'");
        }
    }

    /** The names with prefix {@code prefix}. */
    public static TopicNames withPrefix(String prefix) {
        return new TopicNames(prefix);
    }

    /** The names with the {@link #DEFAULT_PREFIX}. */
    public static TopicNames defaults() {
        return new TopicNames(DEFAULT_PREFIX);
    }

    /** The name of the topic of {@code role}. */
    public String name(TopicRole role) {
        return prefix + role.suffix();
    }

    /** Every topic name, in {@link TopicRole} order. */
    public List<String> all() {
        List<String> names = new ArrayList<>();
        for (TopicRole role : TopicRole.values()) {
            names.add(name(role));
        }
        return names;
    }

    /** {@code <prefix>changes}. */
    public String changes() {
        return name(TopicRole.CHANGES);
    }

    /** {@code <prefix>snapshot-tasks}. */
    public String snapshotTasks() {
        return name(TopicRole.SNAPSHOT_TASKS);
    }

    /** {@code <prefix>snapshot-rows}. */
    public String snapshotRows() {
        return name(TopicRole.SNAPSHOT_ROWS);
    }

    /** {@code <prefix>rows}. */
    public String rows() {
        return name(TopicRole.ROWS);
    }

    /** {@code <prefix>dead-letters}. */
    public String deadLetters() {
        return name(TopicRole.DEAD_LETTERS);
    }

    /** {@code <prefix>ingest-offsets}. */
    public String ingestOffsets() {
        return name(TopicRole.INGEST_OFFSETS);
    }
}
