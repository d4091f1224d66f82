package io.tributary.stream;

import io.tributary.topics.GroupMembership;
import io.tributary.topics.TopicNames;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How to run the stream workers of one deployment: already parsed and validated by the launcher.
 *
 * <p>The Kafka Streams application id (and so the consumer group, the transactional ids and the changelog topic
 * prefix) is {@link #applicationId()}: {@code <topic prefix>stream-workers}. Exactly-once ({@code exactly_once_v2})
 * is not optional. {@code kafka} carries the connection settings ({@code bootstrap.servers}, security, client
 * tuning, {@code consumer.}/{@code producer.} prefixed overrides) and must not set what this record owns.
 *
 * @param kafka          Kafka client and Kafka Streams settings; must contain {@code bootstrap.servers}; unmodifiable
 * @param topics         the deployment's topic names
 * @param stateDirectory where the RocksDB state of this process lives (one directory per process)
 * @param threads        stream threads in this process, {@code >= 1}; each runs some of the partitions' tasks
 */
public record StreamWorkerConfig(Map<String, Object> kafka, TopicNames topics, Path stateDirectory, int threads) {

    /** The Kafka Streams settings this record decides; {@link #kafka()} may not contain them. */
    public static final Set<String> OWNED_SETTINGS = Set.of(StreamsConfig.APPLICATION_ID_CONFIG,
        StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.STATE_DIR_CONFIG,
        StreamsConfig.NUM_STREAM_THREADS_CONFIG);

    /** The default commit interval of the stream threads, in milliseconds (see {@link #TUNED_DEFAULTS}). */
    public static final long COMMIT_INTERVAL_MS = 1_000L;

    /** The default retry backoff of the stream threads' producers, in milliseconds (see {@link #TUNED_DEFAULTS}). */
    public static final long PRODUCER_RETRY_BACKOFF_MS = 20L;

    /** The stream threads' heartbeat interval in their group, in milliseconds (see {@link #TUNED_DEFAULTS}). */
    public static final int MAIN_CONSUMER_HEARTBEAT_INTERVAL_MS = GroupMembership.HEARTBEAT_INTERVAL_MS;

    /** How long the restore consumer's fetches wait for records, in milliseconds (see {@link #TUNED_DEFAULTS}). */
    public static final int RESTORE_FETCH_MAX_WAIT_MS = 20;

    /**
     * Defaults this record adds under {@link #kafka()} (which may override them), tuned for throughput on one
     * partition task's two inputs:
     * <ul>
     *   <li>{@code max.task.idle.ms = -1}: a task processes whichever input has records, without aligning the two
     *       inputs by timestamp; the merge gives the same {@code rows} for any interleaving of its inputs, and the
     *       alignment check costs time on every record while one input ({@code changes} during a snapshot) is
     *       empty;</li>
     *   <li>{@code producer.batch.size = 512 KiB}: fewer, larger produce requests to {@code rows} (the default
     *       16 KiB holds ~25 rows of 500 B);</li>
     *   <li>{@code producer.compression.type = lz4}: {@code rows} (and the stores' changelogs) in lz4 batches, as
     *       ingest and the snapshot workers write theirs. It costs the stream thread 0.2-0.4 us per row and each
     *       reader 0.04-0.10, and saves the broker more: its appends, page cache, socket copies and fetches move
     *       0.13-0.86 of the bytes. A snapshot through the whole pipeline used 2-6 us less CPU per row, 2-3 on rows
     *       that lz4 barely shrinks (docs/decisions/merge.md, "Compression on each hop");</li>
     *   <li>{@code commit.interval.ms = }{@value #COMMIT_INTERVAL_MS}: under exactly-once every commit blocks the
     *       stream thread while it flushes the producer, adds the consumed offsets to the transaction and commits
     *       it (~100 ms on a loaded broker); at the exactly-once default of 100 ms a thread spent about half its
     *       time committing during a snapshot, and the broker wrote ten transactions a second per thread. A longer
     *       interval would make {@code rows} visible to {@code read_committed} readers up to that much later,
     *       but a barrier written less than two seconds ago asks for a commit at once (the merge processor's
     *       prompt commit): while the workers keep up, a checkpoint follows a change within about the barrier
     *       interval; only a backlog (a snapshot) is committed at the interval.</li>
     *   <li>{@code producer.max.in.flight.requests.per.connection = 1}: one produce request at a time, carrying
     *       the batches that are ready by then (up to {@code max.request.size}). Under exactly-once (transactions v2)
     *       the first batch a transaction writes to a partition must reach the log before any later one: with
     *       several requests in flight, a later batch that overtook the first while the broker added the partition
     *       to the transaction was refused ({@code OUT_OF_ORDER_SEQUENCE_NUMBER}) and sent again, a resend of a
     *       whole request at the start of transactions (153 refusals in a 1M-row snapshot, 2 with one request in
     *       flight). Batches also gather while a request is answered, so a snapshot's rows reach the broker in
     *       fewer requests.</li>
     *   <li>{@code producer.retry.backoff.ms = }{@value #PRODUCER_RETRY_BACKOFF_MS}: the first send after a commit
     *       is often refused with {@code CONCURRENT_TRANSACTIONS} while the broker still writes the previous
     *       transaction's markers, and retried after this backoff (default 100 ms: with prompt commits, up to a
     *       tenth of a second lost per commit, the lag the prompt commit is there to cut). Failures that persist
     *       still back off exponentially, up to {@code retry.backoff.max.ms} (1 s).</li>
     *   <li>{@code main.consumer.heartbeat.interval.ms = }{@value #MAIN_CONSUMER_HEARTBEAT_INTERVAL_MS} (Kafka's
     *       default: 3 s): under the classic protocol a member learns that its group rebalances only from its next
     *       heartbeat. The threads of a process join a fresh group a moment apart; the first completed the group
     *       alone and the second was let in ~3 s later, a rebalance of every task in the middle of the first
     *       snapshot. It now comes within half a second. Exactly-once makes a rebalance at any moment safe here;
     *       the session timeout (45 s) is unchanged.</li>
     *   <li>{@code restore.consumer.fetch.max.wait.ms = }{@value #RESTORE_FETCH_MAX_WAIT_MS}: a task runs only
     *       once its changelogs are restored, and the state updater restores the tasks of a thread in batches
     *       through one consumer. With the default 500 ms, the offset reset of each batch after the first waited
     *       for the previous batch's empty fetch to come back: 160-520 ms per batch even for a fresh pipeline's
     *       empty changelogs (5-100 ms with this setting), and a fresh pipeline's stream threads reach RUNNING
     *       about 0.3 s sooner (docs/benchmarks.md, "Findings"). A fetch that finds records returns at once either
     *       way; only an idle standby task (none by default) polls more often.</li>
     *   <li>{@code processing.exception.handler.global.enabled = true}: the topology has no global stores, so
     *       nothing changes but Kafka Streams' warning that it will be the default in Kafka 5.0: once per start
     *       instead of four times (one configuration Kafka Streams derives internally does not carry it).</li>
     * </ul>
     */
    public static final Map<String, Object> TUNED_DEFAULTS = Map.of(
        StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED,
        StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 512 * 1024,
        StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4",
        StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), PRODUCER_RETRY_BACKOFF_MS,
        StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1,
        StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS,
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
        MAIN_CONSUMER_HEARTBEAT_INTERVAL_MS,
        StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), RESTORE_FETCH_MAX_WAIT_MS,
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);

    /** The suffix of the application id after the topic prefix. */
    public static final String APPLICATION_SUFFIX = "stream-workers";

    public StreamWorkerConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(stateDirectory, "stateDirectory");
        if (!kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("The Kafka settings of the stream workers need "
                + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        }
        for (String owned : OWNED_SETTINGS) {
            if (kafka.containsKey(owned)) {
                throw new IllegalArgumentException("The stream workers decide '" + owned + "' themselves; remove it"
                    + " from their Kafka settings (got '" + kafka.get(owned) + "')");
            }
        }
        if (threads < 1) {
            throw new IllegalArgumentException("The stream workers need at least one thread, got " + threads);
        }
        kafka = Map.copyOf(kafka);
    }

    /** The configuration with Kafka settings {@code kafka} (e.g. {@code TestServices#kafkaProperties()}). */
    public static StreamWorkerConfig of(Properties kafka, TopicNames topics, Path stateDirectory, int threads) {
        Map<String, Object> settings = new LinkedHashMap<>();
        kafka.forEach((key, value) -> settings.put(key.toString(), value));
        return new StreamWorkerConfig(settings, topics, stateDirectory, threads);
    }

    /** {@code <topic prefix>stream-workers}: the Kafka Streams application id and consumer group. */
    public String applicationId() {
        return applicationId(topics);
    }

    /** The application id of the stream workers of the deployment named {@code topics}. */
    public static String applicationId(TopicNames topics) {
        return topics.prefix() + APPLICATION_SUFFIX;
    }

    /**
     * The complete Kafka Streams properties: {@link #TUNED_DEFAULTS}, then {@link #kafka()}, then the settings this
     * record owns.
     */
    public Properties streamsProperties() {
        Properties properties = new Properties();
        properties.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
        properties.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
        properties.putAll(TUNED_DEFAULTS);
        properties.putAll(kafka);
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId());
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDirectory.toAbsolutePath().toString());
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        return properties;
    }
}
