package io.tributary.ingest.planner;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterChangedException;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.UnknownProducerIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends table plans (to every partition of {@code snapshot-rows}) and chunk tasks (to {@code snapshot-tasks}, in the
 * partition range of their priority) through one idempotent producer, and confirms them all at {@link #flush()}.
 *
 * <p>Tasks are dealt round-robin over their priority's partitions, continuing where the previous call stopped, so
 * the partitions of a range differ by at most one task: each snapshot worker owns a fixed set of task partitions and
 * reads its partitions' tasks one after another, so a hash that put three of ten chunks in one worker's partitions
 * would leave the others idle while it reads them (a chunk's partition is not part of any contract: a re-planned or
 * retried task may land anywhere). Not thread-safe: the planner uses it from one round at a time.
 *
 * <p>When Kafka refuses the producer's identity (its producer id unknown, or held by another producer with a higher
 * epoch or other sequence numbers: a cluster that lost its state hands out the ids its producers hold again), or the
 * producer's metadata named another cluster than the one it started on ({@link ClusterIdentity}: such a cluster can
 * also acknowledge a batch as another producer's and drop it), the publisher replaces its producer by a new one (a
 * new, higher producer id) and sends again what {@link #flush()} had to confirm, at most {@value #REPLACEMENTS}
 * times. Records acknowledged before the refusal are sent twice then, as
 * when a failed planner round plans its window again.
 */
final class PlanPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(PlanPublisher.class);
    /** How many new producers one {@link #flush()} tries after Kafka refused one. */
    static final int REPLACEMENTS = 3;

    private final Function<ClusterIdentity, Producer<byte[], byte[]>> producers;
    private ClusterIdentity cluster;
    private Producer<byte[], byte[]> producer;
    /** What was sent since the last {@link #flush()}: sent again by a new producer if Kafka refused this one. */
    private final List<ProducerRecord<byte[], byte[]>> unconfirmed = new ArrayList<>();
    private final TopicNames topics;
    private final TopicLayout layout;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Map<TaskPriority, Integer> nextPartition = new EnumMap<>(TaskPriority.class);
    private final Callback callback = (metadata, exception) -> {
        if (exception != null) {
            failure.compareAndSet(null, exception);
        }
    };

    /**
     * A publisher whose producers (the first now, a replacement if Kafka refuses one) come from {@code producers},
     * each made with the {@link ClusterIdentity} it is given as its key serializer.
     */
    PlanPublisher(Function<ClusterIdentity, Producer<byte[], byte[]>> producers, TopicNames topics,
                  TopicLayout layout) {
        this.producers = producers;
        this.cluster = new ClusterIdentity();
        this.producer = producers.apply(cluster);
        this.topics = topics;
        this.layout = layout;
    }

    /** Sends {@code plan} to every partition of {@code snapshot-rows}. */
    void plan(TablePlan plan) {
        SnapshotRowsMessage message = plan;
        for (ProducerRecord<byte[], byte[]> record : TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(
            topics.snapshotRows(), layout.partitions(), message)) {
            send(record);
        }
    }

    /** Sends {@code tasks}, dealt round-robin over their priority's partitions of {@code snapshot-tasks}. */
    void tasks(Collection<ChunkTask> tasks) {
        for (ChunkTask task : tasks) {
            send(TopicCodec.SNAPSHOT_TASKS.record(topics.snapshotTasks(), partitionOf(task), task));
        }
    }

    /** The partition of {@code task}: the next one of its priority's range, in turn. */
    int partitionOf(ChunkTask task) {
        var range = layout.partitionsFor(task.priority());
        int turn = nextPartition.merge(task.priority(), 1, Integer::sum) - 1;
        return range.first() + Math.floorMod(turn, range.size());
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        unconfirmed.add(record);
        producer.send(record, callback);
    }

    /**
     * Waits until everything sent is acknowledged (acks=all). If Kafka refused the producer's identity, sends it all
     * again through a new producer, at most {@value #REPLACEMENTS} times.
     *
     * @throws PlanningException if a record was not (nothing after the failure may be assumed published)
     */
    void flush() {
        Exception error = confirm();
        for (int replaced = 0; error != null && refusedIdentity(error); replaced++) {
            if (replaced == REPLACEMENTS) {
                unconfirmed.clear();
                throw new PlanningException("Publishing snapshot plans and tasks failed: Kafka refused "
                    + (REPLACEMENTS + 1) + " producers of the planner in turn (" + error.getMessage() + "):"
                    + " producers of other processes hold their producer ids, as after the Kafka cluster was"
                    + " replaced under running processes; restart the processes that ran against the old cluster,"
                    + " then plan again", error);
            }
            LOG.warn("Kafka refused the planner's producer ({}): sending {} plan and task records again through a"
                + " new producer", error.toString(), unconfirmed.size());
            producer.close(Duration.ZERO);
            cluster = new ClusterIdentity();
            producer = producers.apply(cluster);
            for (ProducerRecord<byte[], byte[]> record : unconfirmed) {
                producer.send(record, callback);
            }
            error = confirm();
        }
        unconfirmed.clear();
        if (error != null) {
            throw new PlanningException("Publishing snapshot plans and tasks failed: " + error.getMessage(), error);
        }
    }

    /** Closes the current producer, waiting at most {@code timeout} for what it has to send. */
    void close(Duration timeout) {
        producer.close(timeout);
    }

    private Exception confirm() {
        producer.flush();
        Exception error = failure.getAndSet(null);
        if (error == null && cluster.changed()) {
            try {
                cluster.check("The planner's producer");
            } catch (ClusterChangedException e) {
                return e;
            }
        }
        return error;
    }

    private static boolean refusedIdentity(Exception error) {
        return error instanceof InvalidProducerEpochException || error instanceof UnknownProducerIdException
            || error instanceof OutOfOrderSequenceException || error instanceof ClusterChangedException;
    }
}
