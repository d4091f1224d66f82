package io.tributary.stream;

import io.tributary.stream.topology.MergeTopology;
import io.tributary.topics.TopicNames;
import io.tributary.topics.lifecycle.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.processor.internals.StreamThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process's share of the stream workers: a Kafka Streams instance of the merge topology
 * ({@link MergeTopology}) in consumer group {@link StreamWorkerConfig#applicationId()}, exactly-once from
 * {@code changes} and {@code snapshot-rows} to {@code rows}. Start as many as needed, in as many processes; Kafka
 * Streams spreads the partitions over them and moves a failed instance's partitions, with their state, to the
 * others.
 *
 * <p>A stream thread whose transaction its coordinator aborted or fenced is replaced, and the transaction's work
 * redone from the last commit ({@link ThreadFailures}; {@link #redoneTransactions()} counts them); the failed thread
 * leaves the group, so its partitions move to the replacement at once. Any other failure
 * in a stream thread (a bug, an unreadable state store) stops this instance ({@link #state()} becomes
 * {@code ERROR}, {@link #failure()} tells why); undecodable input records are dead-lettered instead. So does a
 * stream thread about to read an input partition from the log's start because Kafka lost records it had not read
 * ({@link InputResetCheck}; {@link #failure()} is then a {@link MergeInputLostException}). Thread-safe.
 */
public final class StreamWorker implements Stage {

    /** How long {@link #start} waits for the cluster to describe the topics. */
    public static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);
    /** How long {@link #close()} waits for the stream threads to finish. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(StreamWorker.class);

    private final KafkaStreams streams;
    private final String applicationId;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ThreadFailures threadFailures = new ThreadFailures();
    private final AtomicLong redoneTransactions = new AtomicLong();

    private StreamWorker(KafkaStreams streams, String applicationId) {
        this.streams = streams;
        this.applicationId = applicationId;
    }

    /**
     * Checks that the topics exist and are co-partitioned and that the group can go on where it stopped
     * ({@link MergeInputCheck}), then starts the merge.
     *
     * @throws StreamWorkerException    if a topic is missing, the co-partitioned topics differ in partition count,
     *                                  or the cluster does not answer within {@link #METADATA_TIMEOUT}
     * @throws MergeInputLostException if Kafka lost input records the group had not merged yet
     */
    public static StreamWorker start(StreamWorkerConfig config) {
        Objects.requireNonNull(config, "config");
        int partitions;
        String cluster;
        StreamsConfig streamsConfig = new StreamsConfig(config.streamsProperties());
        try (Admin admin = Admin.create(streamsConfig.getAdminConfigs(config.applicationId() + "-metadata"))) {
            partitions = coPartitionCount(admin, config.topics());
            cluster = InputResetCheck.clusterId(admin);
            List<MergeInputCheck.Loss> losses = MergeInputCheck.find(admin,
                streamsConfig.getRestoreConsumerConfigs(config.applicationId() + "-input-check"), config.topics(),
                METADATA_TIMEOUT);
            if (!losses.isEmpty()) {
                throw new MergeInputLostException(config.applicationId(), losses);
            }
        }
        KafkaStreams streams = new KafkaStreams(MergeTopology.build(config.topics(), partitions),
            config.streamsProperties(),
            new CheckedResetClients(streamsConfig.getKafkaClientSupplier(),
                new InputResetCheck(streamsConfig, config.topics(), cluster)));
        StreamWorker worker = new StreamWorker(streams, config.applicationId());
        streams.setUncaughtExceptionHandler(worker::onFailure);
        streams.start();
        LOG.info("Stream worker {} started: {} partitions, {} threads, state in {}", config.applicationId(),
            partitions, config.threads(), config.stateDirectory());
        return worker;
    }

    private StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse onFailure(Throwable error) {
        if (threadFailures.classify(error, System.nanoTime()) == ThreadFailures.Verdict.REDO) {
            redoneTransactions.incrementAndGet();
            LOG.warn("Stream worker {}: a stream thread's transaction was aborted by its coordinator ({}); replacing"
                + " the thread, which redoes the transaction's work from the last commit", applicationId,
                error.getMessage(), error);
            replaceLeavingTheGroup();
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        failure.compareAndSet(null, inputLost(error).orElse(error));
        LOG.error("Stream worker {} failed; shutting this instance down", applicationId, error);
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /** The loss of input records {@code error} reports, if it does (Kafka Streams may wrap it). */
    private static Optional<Throwable> inputLost(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MergeInputLostException) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Replaces the failing stream thread (the caller) as {@code REPLACE_THREAD} does, except that the failed
     * thread's consumer leaves the group when it closes. Kafka Streams' own replacement closes it remaining in the
     * group, so its partitions, with the redone work, would wait for its membership to expire (the session timeout)
     * before the group rebalances them to the replacement; leaving starts that rebalance at once. The failed thread
     * asked to shut down first, so the {@code REPLACE_THREAD} answer that follows finds it shutting down and adds
     * no second replacement. Scaling and a deliberate stop are unchanged (a stop already leaves the group).
     */
    private void replaceLeavingTheGroup() {
        if (!(Thread.currentThread() instanceof StreamThread failed)
            || !failed.shutdown(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)) {
            return;
        }
        Optional<String> replacement = streams.addStreamThread();
        if (replacement.isEmpty()) {
            LOG.warn("Stream worker {}: no replacement for stream thread {} (the instance is {})", applicationId,
                failed.getName(), streams.state());
        }
    }

    private static int coPartitionCount(Admin admin, TopicNames names) {
        List<String> coPartitioned = List.of(names.changes(), names.snapshotRows(), names.rows());
        try {
            Map<String, TopicDescription> topics = admin.describeTopics(
                    List.of(names.changes(), names.snapshotRows(), names.rows(), names.deadLetters()))
                .allTopicNames().get(METADATA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            int partitions = topics.get(names.changes()).partitions().size();
            for (String topic : coPartitioned) {
                int count = topics.get(topic).partitions().size();
                if (count != partitions) {
                    throw new StreamWorkerException("Topics " + coPartitioned + " must have the same partition count"
                        + " (co-partitioned), but " + names.changes() + " has " + partitions + " and " + topic
                        + " has " + count);
                }
            }
            return partitions;
        } catch (ExecutionException e) {
            throw new StreamWorkerException("Cannot describe the topics of the stream workers (provision them"
                + " first): " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new StreamWorkerException("The cluster did not describe the stream workers' topics within "
                + METADATA_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamWorkerException("Interrupted while describing the stream workers' topics", e);
        }
    }

    /** The application id (consumer group) this instance belongs to. */
    public String applicationId() {
        return applicationId;
    }

    /** The Kafka Streams state of this instance ({@code RUNNING} once it processes its partitions). */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /** How many times a stream thread was replaced because its coordinator aborted or fenced its transaction. */
    public long redoneTransactions() {
        return redoneTransactions.get();
    }

    @Override
    public String stageName() {
        return "stream workers";
    }

    /** Why this instance stopped, if a stream thread failed. */
    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Stops this instance, waiting up to {@link #CLOSE_TIMEOUT}, and leaves the consumer group: its partitions
     * move to the other instances at once.
     */
    @Override
    public void close() {
        close(CLOSE_TIMEOUT);
    }

    /**
     * Stops this instance, waiting up to {@code timeout} for the stream threads to commit and finish.
     *
     * @return whether every thread finished in time
     */
    public boolean close(Duration timeout) {
        // Kafka Streams members stay in their group on close by default, so the partitions of a stopped instance
        // wait out the session timeout before a restarted or remaining instance gets them (a ~30 s checkpoint
        // stall on every restart). A deliberate stop leaves the group; only a crash pays the session timeout.
        boolean closed = streams.close(CloseOptions.groupMembershipOperation(
            CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(timeout));
        LOG.info("Stream worker {} {}", applicationId, closed ? "closed" : "did not close within " + timeout);
        return closed;
    }
}
