package io.tributary.writer;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicNames;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Everything a {@link StorageWriter} needs, already parsed and validated by the launcher.
 *
 * @param kafka        Kafka client properties shared by every client ({@code bootstrap.servers}, security ...);
 *                     the writer sets its own group id, deserializers, isolation level and offset handling
 * @param topics       the deployment's topic names (the consumer group is
 *                     {@code SyncRulesGroup.consumerGroup(topics.prefix())})
 * @param storage      the storage database
 * @param groupId      the sync rules group to write
 * @param rules        the group's sync rules YAML
 * @param batchRecords most records of one partition per batch transaction, {@code >= 1}
 * @param threads      writer loops in this process (each a consumer of the group with its own committer),
 *                     {@code >= 1}
 * @param tuning       timing knobs
 */
public record WriterConfig(Map<String, Object> kafka, TopicNames topics, PgEndpoint storage, long groupId,
                           String rules, int batchRecords, int threads, WriterTuning tuning) {

    public WriterConfig {
        kafka = Map.copyOf(kafka);
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(tuning, "tuning");
        if (groupId < 1 || batchRecords < 1 || threads < 1) {
            throw new IllegalArgumentException("groupId, batchRecords and threads must be >= 1, got " + groupId
                + ", " + batchRecords + ", " + threads);
        }
    }

    /** A configuration with {@link WriterTuning#defaults()}. */
    public static WriterConfig of(Properties kafka, TopicNames topics, PgEndpoint storage, long groupId,
                                  String rules, int batchRecords, int threads) {
        Map<String, Object> properties = new HashMap<>();
        kafka.forEach((key, value) -> properties.put(String.valueOf(key), value));
        return new WriterConfig(properties, topics, storage, groupId, rules, batchRecords, threads,
            WriterTuning.defaults());
    }

    /** This configuration with {@code newTuning}. */
    public WriterConfig withTuning(WriterTuning newTuning) {
        return new WriterConfig(kafka, topics, storage, groupId, rules, batchRecords, threads, newTuning);
    }
}
