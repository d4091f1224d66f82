package io.tributary.topics;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * How one topic must be created: name, partitions, replication factor and topic configs.
 *
 * @param role              what the topic is for
 * @param name              the topic name
 * @param partitions        the partition count, {@code >= 1}
 * @param replicationFactor the replication factor, {@code >= 1}
 * @param configs           topic configs set at creation (unmodifiable), including {@code cleanup.policy}
 */
public record TopicSpec(TopicRole role, String name, int partitions, short replicationFactor,
                        Map<String, String> configs) {

    public TopicSpec {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(name, "name");
        if (partitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("Topic " + name + " needs partitions >= 1 and replication factor"
                + " >= 1, got " + partitions + " and " + replicationFactor);
        }
        configs = Map.copyOf(configs);
    }

    /** The Admin request that creates this topic. */
    public NewTopic toNewTopic() {
        return new NewTopic(name, Optional.of(partitions), Optional.of(replicationFactor)).configs(configs);
    }
}
