package io.tributary.ingest.planner;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TablePlan;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends table plans (to every partition of {@code snapshot-rows}) and chunk tasks (to {@code snapshot-tasks}, in the
 * partition range of their priority, by chunk id hash) through one idempotent producer, and confirms them all at
 * {@link #flush()}. Not thread-safe: the planner uses it from one round at a time.
 */
final class PlanPublisher {

    private final Producer<byte[], byte[]> producer;
    private final TopicNames topics;
    private final TopicLayout layout;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
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

    /** Sends {@code tasks} to their priority's partitions of {@code snapshot-tasks}. */
    void tasks(Collection<ChunkTask> tasks) {
        for (ChunkTask task : tasks) {
            producer.send(TopicCodec.SNAPSHOT_TASKS.record(topics.snapshotTasks(),
                Partitioning.taskPartition(task, layout), task), callback);
        }
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
