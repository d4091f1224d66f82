package io.tributary.stream.merge;

import io.tributary.topics.messages.TopicMessage;

/** Learns what {@link MergeRules} dropped and why (for metrics and logs). Called on the merging thread. */
@FunctionalInterface
public interface MergeObserver {

    /** Observes nothing. */
    MergeObserver NONE = (message, reason) -> {
    };

    /** {@code message} was dropped for {@code reason}. */
    void dropped(TopicMessage message, DropReason reason);
}
