package io.tributary.ingest.planner;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends table plans (to every partition of {@code snapshot-rows}) and chunk tasks (to {@code snapshot-tasks}, in the
 * partition range of their priority) through one idempotent producer, and confirms them all at {@link #flush()}.
 *
 * <p>Tasks are dealt round-robin over their priority's partitions, continuing where the previous call stopped, so
 * the partitions of a range differ by at most one task: each snapshot worker owns a fixed set of task partitions and
 * reads its partitions' tasks one after another, so a hash that put three of ten chunks in one worker's partitions
 * would leave the others idle while it reads them (a chunk's partition is not part of any contract: a re-planned or
 * retried task may land anywhere). Not thread-safe: the planner uses it from one round at a time.
 */
final class PlanPublisher {

    private final Producer<byte[], byte[]> producer;
    private final TopicNames topics;
    private final TopicLayout layout;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Map<TaskPriority, Integer> nextPartition = new EnumMap<>(TaskPriority.class);
    private final Callback callback = (metadata, exception) -> {
        if (exception != null) {
            failure.compareAndSet(null, exception);
        }
    };

    PlanPublisher(Producer<byte[], byte[]> producer, TopicNames topics, TopicLayout layout) {
        this.producer = producer;
        this.topics = topics;
        this.layout = layout;
    }

    /** Sends {@code plan} to every partition of {@code snapshot-rows}. */
    void plan(TablePlan plan) {
        SnapshotRowsMessage message = plan;
        for (ProducerRecord<byte[], byte[]> record : TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(
            topics.snapshotRows(), layout.partitions(), message)) {
            producer.send(record, callback);
        }
    }

    /** Sends {@code tasks}, dealt round-robin over their priority's partitions of {@code snapshot-tasks}. */
    void tasks(Collection<ChunkTask> tasks) {
        for (ChunkTask task : tasks) {
            producer.send(TopicCodec.SNAPSHOT_TASKS.record(topics.snapshotTasks(), partitionOf(task), task),
                callback);
        }
    }

    /** The partition of {@code task}: the next one of its priority's range, in turn. */
    int partitionOf(ChunkTask task) {
        var range = layout.partitionsFor(task.priority());
        int turn = nextPartition.merge(task.priority(), 1, Integer::sum) - 1;
        return range.first() + Math.floorMod(turn, range.size());
    }

    /**
     * Waits until everything sent is acknowledged (acks=all).
     *
     * @throws PlanningException if a record was not (nothing after the failure may be assumed published)
     */
    void flush() {
        producer.flush();
        Exception error = failure.getAndSet(null);
        if (error != null) {
            throw new PlanningException("Publishing snapshot plans and tasks failed: " + error.getMessage(), error);
        }
    }
}
