package io.tributary.launcher.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where Kafka is and how Tributary lays out its topics there.
 *
 * @param bootstrapServers empty = embedded Kafka
 * @param rowsTombstoneRetention {@code delete.retention.ms} of {@code rows}, positive
 * @param clientProperties passed to every Kafka client unchanged (security.protocol, sasl.*, ssl.*, ...)
 */
public record KafkaSettings(Optional<String> bootstrapServers, String topicPrefix, int partitions,
                            int replicationFactor, Duration rowsTombstoneRetention,
                            Map<String, String> clientProperties) {

    public KafkaSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(rowsTombstoneRetention, "rowsTombstoneRetention");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        clientProperties = Map.copyOf(clientProperties);
    }

    @Override
    public String toString() {
        return "KafkaSettings[bootstrapServers=" + bootstrapServers.orElse("embedded") + ", topicPrefix=" + topicPrefix
            + ", partitions=" + partitions + ", replicationFactor=" + replicationFactor + ", rowsTombstoneRetention="
            + rowsTombstoneRetention + ", clientProperties="
            + clientProperties.keySet() + "]";
    }
}
