package io.tributary.topics.provision;

import java.util.Objects;

/**
 * One way an existing topic differs from the layout.
 *
 * @param topic    the topic
 * @param property what differs ({@code partitions} or a topic config such as {@code cleanup.policy})
 * @param expected the layout's value
 * @param found    the topic's value
 * @param fix      how to resolve it
 */
public record TopicMismatch(String topic, String property, String expected, String found, String fix) {

    public TopicMismatch {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(property, "property");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(fix, "fix");
    }

    /** {@code topic 'x': partitions is 4, expected 6. Fix: ...}. */
    @Override
    public String toString() {
        return "topic '" + topic + "': " + property + " is " + found + ", expected " + expected + ". Fix: " + fix;
    }
}
