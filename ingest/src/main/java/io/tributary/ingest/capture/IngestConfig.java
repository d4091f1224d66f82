package io.tributary.ingest.capture;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Everything the {@code ingest} role needs, parsed and checked once by the caller (the launcher); the rest of the
 * capture code never sees strings or maps of settings, except {@link #kafkaProperties()} which is handed to Kafka
 * clients unchanged.
 *
 * @param source               the source database; its user needs REPLICATION and must own the captured tables
 * @param slotName             the logical replication slot, created if missing ({@code [a-z0-9_]}, at most 63)
 * @param publicationName      the publication listing the captured tables, created if missing (same rule)
 * @param topics               the deployment's topic names ({@code changes}, {@code ingest-offsets})
 * @param layout               the deployment's topic layout (partition count of {@code changes})
 * @param kafkaProperties      client properties for every Kafka client (at least {@code bootstrap.servers})
 * @param tables               which source tables to capture
 * @param heartbeatInterval    how often Debezium emits a heartbeat and writes a WAL message on an idle source,
 *                             which bounds the time between barriers; positive, at most 1 s by default (500 ms)
 * @param barrierInterval      the least time between two barriers (200 ms by default); not negative
 * @param tableRefreshInterval how often the selection is re-resolved and new tables added to the publication
 * @param offsetFlushInterval  how often acknowledged positions are committed (Debezium offsets, then the slot)
 * @param maxRetryBackoff      the longest wait between two attempts to (re)start, also as a standby
 * @param replicaIdentityFull  whether ingest sets {@code REPLICA IDENTITY FULL} on captured tables with TOAST-able
 *                             columns, so unchanged TOASTed values travel with updates (see {@link IngestService})
 * @param maxBatchSize         the most records Debezium hands over in one batch
 * @param sealed               the highest barrier the storage writers sealed, which the next run's barriers pass
 */
public record IngestConfig(PgEndpoint source, String slotName, String publicationName, TopicNames topics,
                           TopicLayout layout, Map<String, String> kafkaProperties, TableSelection tables,
                           Duration heartbeatInterval, Duration barrierInterval, Duration tableRefreshInterval,
                           Duration offsetFlushInterval, Duration maxRetryBackoff, boolean replicaIdentityFull,
                           int maxBatchSize, SealedEpochs sealed) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9_]{1,63}");

    /** Default {@link #heartbeatInterval()}. */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofMillis(500);
    /** Default {@link #barrierInterval()}. */
    public static final Duration DEFAULT_BARRIER_INTERVAL = Duration.ofMillis(200);
    /** Default {@link #tableRefreshInterval()}. */
    public static final Duration DEFAULT_TABLE_REFRESH_INTERVAL = Duration.ofSeconds(5);
    /** Default {@link #offsetFlushInterval()}. */
    public static final Duration DEFAULT_OFFSET_FLUSH_INTERVAL = Duration.ofSeconds(1);
    /** Default {@link #maxRetryBackoff()}. */
    public static final Duration DEFAULT_MAX_RETRY_BACKOFF = Duration.ofSeconds(5);
    /** Default {@link #maxBatchSize()}. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 8192;

    public IngestConfig {
        Objects.requireNonNull(source, "source");
        requireName("slotName", slotName);
        requireName("publicationName", publicationName);
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(layout, "layout");
        kafkaProperties = Map.copyOf(kafkaProperties);
        if (!kafkaProperties.containsKey("bootstrap.servers")) {
            throw new IllegalArgumentException("kafkaProperties need bootstrap.servers");
        }
        Objects.requireNonNull(tables, "tables");
        requirePositive("heartbeatInterval", heartbeatInterval);
        Objects.requireNonNull(barrierInterval, "barrierInterval");
        if (barrierInterval.isNegative()) {
            throw new IllegalArgumentException("barrierInterval must not be negative: " + barrierInterval);
        }
        requirePositive("tableRefreshInterval", tableRefreshInterval);
        requirePositive("offsetFlushInterval", offsetFlushInterval);
        requirePositive("maxRetryBackoff", maxRetryBackoff);
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("maxBatchSize must be >= 1, got " + maxBatchSize);
        }
        Objects.requireNonNull(sealed, "sealed");
    }

    private static void requireName(String what, String name) {
        Objects.requireNonNull(name, what);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must be 1 to 63 characters of [a-z0-9_], got '" + name + "'");
        }
    }

    private static void requirePositive(String what, Duration duration) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
    }

    /** A configuration with every default. */
    public static IngestConfig of(PgEndpoint source, String slotName, String publicationName, TopicNames topics,
                                  TopicLayout layout, Map<String, String> kafkaProperties, TableSelection tables) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            DEFAULT_HEARTBEAT_INTERVAL, DEFAULT_BARRIER_INTERVAL, DEFAULT_TABLE_REFRESH_INTERVAL,
            DEFAULT_OFFSET_FLUSH_INTERVAL, DEFAULT_MAX_RETRY_BACKOFF, true, DEFAULT_MAX_BATCH_SIZE,
            SealedEpochs.none());
    }

    /** This configuration with {@code interval} as {@link #heartbeatInterval()}. */
    public IngestConfig withHeartbeatInterval(Duration interval) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            interval, barrierInterval, tableRefreshInterval, offsetFlushInterval, maxRetryBackoff,
            replicaIdentityFull, maxBatchSize, sealed);
    }

    /** This configuration with {@code interval} as {@link #barrierInterval()}. */
    public IngestConfig withBarrierInterval(Duration interval) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, interval, tableRefreshInterval, offsetFlushInterval, maxRetryBackoff,
            replicaIdentityFull, maxBatchSize, sealed);
    }

    /** This configuration with {@code interval} as {@link #tableRefreshInterval()}. */
    public IngestConfig withTableRefreshInterval(Duration interval) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, interval, offsetFlushInterval, maxRetryBackoff,
            replicaIdentityFull, maxBatchSize, sealed);
    }

    /** This configuration with {@code interval} as {@link #offsetFlushInterval()}. */
    public IngestConfig withOffsetFlushInterval(Duration interval) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, tableRefreshInterval, interval, maxRetryBackoff,
            replicaIdentityFull, maxBatchSize, sealed);
    }

    /** This configuration with {@code backoff} as {@link #maxRetryBackoff()}. */
    public IngestConfig withMaxRetryBackoff(Duration backoff) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, tableRefreshInterval, offsetFlushInterval, backoff,
            replicaIdentityFull, maxBatchSize, sealed);
    }

    /** This configuration with {@link #replicaIdentityFull()} set to {@code enabled}. */
    public IngestConfig withReplicaIdentityFull(boolean enabled) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, tableRefreshInterval, offsetFlushInterval, maxRetryBackoff,
            enabled, maxBatchSize, sealed);
    }

    /** This configuration with {@code size} as {@link #maxBatchSize()}. */
    public IngestConfig withMaxBatchSize(int size) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, tableRefreshInterval, offsetFlushInterval, maxRetryBackoff,
            replicaIdentityFull, size, sealed);
    }

    /** This configuration with {@code seals} as {@link #sealed()}. */
    public IngestConfig withSealed(SealedEpochs seals) {
        return new IngestConfig(source, slotName, publicationName, topics, layout, kafkaProperties, tables,
            heartbeatInterval, barrierInterval, tableRefreshInterval, offsetFlushInterval, maxRetryBackoff,
            replicaIdentityFull, maxBatchSize, seals);
    }

    /** The Debezium engine name, the key of its offsets in {@code ingest-offsets}: one per slot. */
    public String engineName() {
        return "tributary-ingest-" + slotName;
    }
}
