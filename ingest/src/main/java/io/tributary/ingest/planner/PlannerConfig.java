package io.tributary.ingest.planner;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * How the snapshot planner runs, already parsed and validated by the launcher.
 *
 * @param kafka          Kafka client settings with {@code bootstrap.servers} (the planner's producer is idempotent
 *                       with acks=all whatever they say); unmodifiable
 * @param topics         the deployment's topic names
 * @param layout         the deployment's topic layout
 * @param chunkRows      target rows per chunk ({@code replication.snapshot.chunk_rows}), {@code >= 1}
 * @param maxSampleRows  most primary keys sampled to cut one table, {@code >= 100}
 * @param batchTables    tables planned per storage transaction and Kafka flush, {@code >= 1}
 * @param interval       the pause between two planning rounds of {@link SnapshotPlanner#start()}, positive
 * @param publication    the capture's publication: a window opens only for a table it publishes
 *                       ({@link CaptureGate}); empty = no capture to wait for (tests of the planner alone)
 * @param slot           the capture's replication slot: no window opens while it does not exist or is not
 *                       consistent yet ({@link CaptureGate}); empty = not checked (tests of the planner alone)
 */
public record PlannerConfig(Map<String, Object> kafka, TopicNames topics, TopicLayout layout, int chunkRows,
                            int maxSampleRows, int batchTables, Duration interval, Optional<String> publication,
                            Optional<String> slot) {

    /** Default {@link #chunkRows()}. */
    public static final int DEFAULT_CHUNK_ROWS = 20_000;

    public PlannerConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(publication, "publication");
        Objects.requireNonNull(slot, "slot");
        if (!kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("The planner's Kafka settings need "
                + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        }
        if (chunkRows < 1 || maxSampleRows < 100 || batchTables < 1 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("The planner needs chunkRows >= 1, maxSampleRows >= 100,"
                + " batchTables >= 1 and a positive interval, got " + chunkRows + ", " + maxSampleRows + ", "
                + batchTables + ", " + interval);
        }
        kafka = Map.copyOf(kafka);
    }

    /** A configuration with {@link #DEFAULT_CHUNK_ROWS}, 100k sampled keys, 200 tables per batch, every 10 s. */
    public static PlannerConfig of(Properties kafka, TopicNames topics, TopicLayout layout) {
        Map<String, Object> settings = new LinkedHashMap<>();
        kafka.forEach((key, value) -> settings.put(key.toString(), value));
        return new PlannerConfig(settings, topics, layout, DEFAULT_CHUNK_ROWS, 100_000, 200, Duration.ofSeconds(10),
            Optional.empty(), Optional.empty());
    }

    /** This configuration with {@code rows} target rows per chunk. */
    public PlannerConfig withChunkRows(int rows) {
        return new PlannerConfig(kafka, topics, layout, rows, maxSampleRows, batchTables, interval, publication,
            slot);
    }

    /** This configuration with {@code pause} between planning rounds. */
    public PlannerConfig withInterval(Duration pause) {
        return new PlannerConfig(kafka, topics, layout, chunkRows, maxSampleRows, batchTables, pause, publication,
            slot);
    }

    /** This configuration opening windows only for tables {@code name} publishes ({@link CaptureGate}). */
    public PlannerConfig withPublication(String name) {
        return new PlannerConfig(kafka, topics, layout, chunkRows, maxSampleRows, batchTables, interval,
            Optional.of(name), slot);
    }

    /** This configuration opening windows only while replication slot {@code name} is consistent. */
    public PlannerConfig withSlot(String name) {
        return new PlannerConfig(kafka, topics, layout, chunkRows, maxSampleRows, batchTables, interval,
            publication, Optional.of(name));
    }
}
