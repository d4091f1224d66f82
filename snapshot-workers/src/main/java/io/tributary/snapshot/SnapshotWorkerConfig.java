package io.tributary.snapshot;

import io.tributary.postgres.PgEndpoint;
import io.tributary.postgres.RetryPolicy;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Everything the snapshot workers of one process need, already parsed and validated by the launcher.
 *
 * <p>The consumer group over {@code snapshot-tasks} is {@link #consumerGroup()}: {@code <topic prefix>snapshot-workers}
 * (predictable, for autoscalers reading its lag). {@code kafka} carries connection settings ({@code bootstrap.servers},
 * security, client tuning) shared by the workers' consumers and producer; the settings in {@link #OWNED_SETTINGS}
 * are the workers' own and may not be given.
 *
 * @param kafka              Kafka client settings, with {@code bootstrap.servers}; unmodifiable
 * @param topics             the deployment's topic names
 * @param layout             the deployment's topic layout (partition counts and priority ranges)
 * @param source             the source database chunks are read from
 * @param storage            the storage database holding chunk progress
 * @param workersPerProcess  work loops in this process ({@code replication.workers_per_process}), each a member of
 *                           the consumer group, {@code >= 1}
 * @param maxConcurrentReads chunk reads against the source at once in this process, {@code >= 1}
 * @param read               how chunks are read
 * @param retry              how transient source, storage and Kafka failures are retried
 * @param progressInterval   the least time between two progress log lines of one table, positive
 */
public record SnapshotWorkerConfig(Map<String, Object> kafka, TopicNames topics, TopicLayout layout,
                                   PgEndpoint source, PgEndpoint storage, int workersPerProcess,
                                   int maxConcurrentReads, ReadSettings read, RetryPolicy retry,
                                   Duration progressInterval) {

    /** How transient failures are retried unless configured: 200 ms doubling up to 10 s, for up to 10 minutes. */
    public static final RetryPolicy DEFAULT_RETRY =
        RetryPolicy.of(Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMinutes(10));

    /** The suffix of the consumer group after the topic prefix. */
    public static final String GROUP_SUFFIX = "snapshot-workers";

    /** Client settings the workers decide themselves. */
    public static final Set<String> OWNED_SETTINGS = Set.of(ConsumerConfig.GROUP_ID_CONFIG,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
        ProducerConfig.ACKS_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ProducerConfig.TRANSACTIONAL_ID_CONFIG);

    public SnapshotWorkerConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(read, "read");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(progressInterval, "progressInterval");
        if (!kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("The snapshot workers' Kafka settings need "
                + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        }
        for (String owned : OWNED_SETTINGS) {
            if (kafka.containsKey(owned)) {
                throw new IllegalArgumentException("The snapshot workers decide '" + owned + "' themselves; remove"
                    + " it from their Kafka settings");
            }
        }
        if (workersPerProcess < 1 || maxConcurrentReads < 1) {
            throw new IllegalArgumentException("workersPerProcess and maxConcurrentReads must be >= 1, got "
                + workersPerProcess + " and " + maxConcurrentReads);
        }
        if (progressInterval.isNegative() || progressInterval.isZero()) {
            throw new IllegalArgumentException("progressInterval must be positive: " + progressInterval);
        }
        kafka = Map.copyOf(kafka);
    }

    /**
     * A configuration with {@link ReadSettings#DEFAULT}, {@link #DEFAULT_RETRY} and progress lines every
     * 10 seconds.
     */
    public static SnapshotWorkerConfig of(Properties kafka, TopicNames topics, TopicLayout layout,
                                          PgEndpoint source, PgEndpoint storage, int workersPerProcess,
                                          int maxConcurrentReads) {
        Map<String, Object> settings = new LinkedHashMap<>();
        kafka.forEach((key, value) -> settings.put(key.toString(), value));
        return new SnapshotWorkerConfig(settings, topics, layout, source, storage, workersPerProcess,
            maxConcurrentReads, ReadSettings.DEFAULT, DEFAULT_RETRY, Duration.ofSeconds(10));
    }

    /** This configuration with {@code settings} for reads. */
    public SnapshotWorkerConfig withRead(ReadSettings settings) {
        return new SnapshotWorkerConfig(kafka, topics, layout, source, storage, workersPerProcess,
            maxConcurrentReads, settings, retry, progressInterval);
    }

    /** This configuration with {@code policy} for retries. */
    public SnapshotWorkerConfig withRetry(RetryPolicy policy) {
        return new SnapshotWorkerConfig(kafka, topics, layout, source, storage, workersPerProcess,
            maxConcurrentReads, read, policy, progressInterval);
    }

    /** {@code <topic prefix>snapshot-workers}: the consumer group of the workers over {@code snapshot-tasks}. */
    public String consumerGroup() {
        return consumerGroup(topics);
    }

    /** The consumer group of the snapshot workers of the deployment named {@code topics}. */
    public static String consumerGroup(TopicNames topics) {
        return topics.prefix() + GROUP_SUFFIX;
    }
}
