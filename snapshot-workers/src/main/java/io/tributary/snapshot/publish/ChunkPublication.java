package io.tributary.snapshot.publish;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowsMessage;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The records of one chunk attempt on {@code snapshot-rows}: its rows, each in the partition of its key, then its
 * {@link ChunkDone} in every partition. Tracks their acknowledgements: {@link #acknowledged()} completes once
 * {@link #finish} was called and Kafka acknowledged every record (acks=all), or fails with the first error.
 *
 * <p>{@link #send} blocks when the producer's buffer is full: a slow Kafka slows the read (backpressure). Rows and
 * the done marker go through one idempotent producer, so in every partition the marker follows the chunk's rows.
 * One thread sends; acknowledgements arrive on the producer's I/O thread.
 */
public final class ChunkPublication {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final ChunkTask task;
    private final PgSnapshot snapshot;
    private final CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    private final AtomicLong unacknowledged = new AtomicLong(1);
    private final Callback callback = (metadata, exception) -> {
        if (exception != null) {
            acknowledged.completeExceptionally(exception);
        }
        settle();
    };
    private long rows;
    private Lsn highWatermark;

    ChunkPublication(Producer<byte[], byte[]> producer, String topic, int partitions, ChunkTask task,
                     PgSnapshot snapshot) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.task = Objects.requireNonNull(task, "task");
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
    }

    /** Sends one row read by the attempt; blocks while the producer's buffer is full. */
    public void send(KeyValues pk, RowJson row) {
        if (highWatermark != null) {
            throw new IllegalStateException("Chunk " + task.chunkId() + " is finished; no more rows");
        }
        SnapshotRowsMessage message = SnapshotRow.of(task, pk, row, snapshot);
        sendRecord(TopicCodec.SNAPSHOT_ROWS.recordByKey(topic, partitions, message));
        rows++;
    }

    /** Sends the done marker to every partition, after every row; no row may follow. */
    public void finish(Lsn chunkHighWatermark) {
        if (highWatermark != null) {
            throw new IllegalStateException("Chunk " + task.chunkId() + " is finished already");
        }
        highWatermark = Objects.requireNonNull(chunkHighWatermark, "chunkHighWatermark");
        SnapshotRowsMessage done = ChunkDone.of(task, chunkHighWatermark, rows);
        for (ProducerRecord<byte[], byte[]> record
                : TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(topic, partitions, done)) {
            sendRecord(record);
        }
        settle();
    }

    private void sendRecord(ProducerRecord<byte[], byte[]> record) {
        unacknowledged.incrementAndGet();
        try {
            producer.send(record, callback);
        } catch (RuntimeException e) {
            settle();
            throw e;
        }
    }

    private void settle() {
        if (unacknowledged.decrementAndGet() == 0) {
            acknowledged.complete(null);
        }
    }

    /** Completes when every record is acknowledged (after {@link #finish}); fails with the first send error. */
    public CompletableFuture<Void> acknowledged() {
        return acknowledged;
    }

    /** The attempt being published. */
    public ChunkTask task() {
        return task;
    }

    /** Rows sent so far. */
    public long rows() {
        return rows;
    }

    /** The high watermark given to {@link #finish}, or null before. */
    public Lsn highWatermark() {
        return highWatermark;
    }
}
