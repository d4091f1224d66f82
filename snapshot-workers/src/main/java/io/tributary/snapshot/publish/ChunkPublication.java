package io.tributary.snapshot.publish;

import io.tributary.topics.clients.ClusterChangedException;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The records of one chunk attempt on {@code snapshot-rows}: its rows, each in the partition of its key, several to
 * a record ({@link SnapshotRowBatch}, up to {@link #BATCH_BYTES} of rows per record, a larger row alone), then its
 * {@link ChunkDone} in every partition, sent only once Kafka acknowledged every row (acks=all). A partition therefore
 * never sees an attempt done while a row of that attempt is missing: if a row fails, no done marker of the attempt is
 * sent at all, and the retry (a higher attempt) is not taken for late rows of a finished chunk.
 * {@link #acknowledged()} completes once the done markers are acknowledged too, or fails with the first error. An
 * acknowledgement counts only while the producer's cluster is the one it started on: once its metadata named another
 * ({@link ClusterIdentity}: a replaced cluster can acknowledge a batch and drop it), every acknowledgement fails the
 * attempt with a {@link io.tributary.topics.clients.ClusterChangedException}, which stops the worker.
 *
 * <p>{@link #send} blocks when the producer's buffer is full: a slow Kafka slows the read (backpressure). The done
 * markers are sent by the publishing thread from {@link #settle()}, never from the producer's I/O thread (a send
 * there could wait for buffer space only that thread frees). One thread sends and settles; acknowledgements arrive
 * on the producer's I/O thread. Rows wait in their partition's batch until it is full, {@link #flush()}ed or the
 * attempt finished, so an attempt holds at most {@link #BATCH_BYTES} of rows per partition besides what the producer
 * buffers. A chunk
 * whose table, chunk or window id has no UTF-8 form sends each row in a record of its own
 * ({@link TopicCodec#batchesRowsOf}).
 */
public final class ChunkPublication {

    /**
     * Most bytes of rows (keys, rows and their lengths) in one batch record. A row that would take a batch past it
     * starts the next one, so a record is at most this large unless it holds a single larger row (which a record of
     * its own would carry anyway). Well under the producer's {@code max.request.size} and the broker's
     * {@code message.max.bytes} defaults (1 MiB), and large enough that the records' fixed costs (the producer's,
     * the broker's, Kafka Streams' per-record work and the header of the batch) are spread over a hundred ~500 B
     * rows.
     */
    public static final int BATCH_BYTES = 64 * 1024;

    private final Producer<byte[], byte[]> producer;
    private final ClusterIdentity cluster;
    private final String topic;
    private final int partitions;
    private final ChunkTask task;
    private final PgSnapshot snapshot;
    private final CompletableFuture<Void> rowsAcknowledged = new CompletableFuture<>();
    private final CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    private final AtomicLong rowsUnacknowledged = new AtomicLong(1);
    private final AtomicLong markersUnacknowledged = new AtomicLong();
    private final Callback rowCallback = (metadata, exception) -> {
        Exception failure = exception != null ? exception : clusterChange();
        if (failure != null) {
            rowsAcknowledged.completeExceptionally(failure);
            acknowledged.completeExceptionally(failure);
        }
        settleRow();
    };
    private final Callback markerCallback = (metadata, exception) -> {
        Exception failure = exception != null ? exception : clusterChange();
        if (failure != null) {
            acknowledged.completeExceptionally(failure);
        }
        if (markersUnacknowledged.decrementAndGet() == 0) {
            acknowledged.complete(null);
        }
    };
    private final boolean batching;
    private final List<List<SnapshotRow>> batches;
    private final int[] batchBytes;
    private long rows;
    private Lsn highWatermark;
    private boolean markersSent;

    ChunkPublication(Producer<byte[], byte[]> producer, ClusterIdentity cluster, String topic, int partitions,
                     ChunkTask task, PgSnapshot snapshot) {
        this.producer = producer;
        this.cluster = cluster;
        this.topic = topic;
        this.partitions = partitions;
        this.task = Objects.requireNonNull(task, "task");
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
        this.batching = TopicCodec.batchesRowsOf(task);
        this.batches = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            batches.add(new ArrayList<>());
        }
        this.batchBytes = new int[partitions];
    }

    /**
     * Adds one row read by the attempt to its partition's batch, sending the batch first if the row would take it
     * past {@link #BATCH_BYTES}; blocks while the producer's buffer is full.
     */
    public void send(KeyValues pk, RowJson row) {
        if (highWatermark != null) {
            throw new IllegalStateException("Chunk " + task.chunkId() + " is finished; no more rows");
        }
        SnapshotRow message = SnapshotRow.of(task, pk, row, snapshot);
        rows++;
        if (!batching) {
            sendRecord(TopicCodec.SNAPSHOT_ROWS.recordByKey(topic, partitions, message));
            return;
        }
        int partition = Partitioning.partitionFor(RecordKeys.encode(message.rowKey()), partitions);
        int size = TopicCodec.batchedRowSize(pk.unsafeUtf8(), row.unsafeUtf8());
        List<SnapshotRow> batch = batches.get(partition);
        if (!batch.isEmpty() && batchBytes[partition] + size > BATCH_BYTES) {
            sendBatch(partition);
        }
        batch.add(message);
        batchBytes[partition] += size;
    }

    private void sendBatch(int partition) {
        List<SnapshotRow> batch = batches.get(partition);
        SnapshotRowBatch message = SnapshotRowBatch.of(batch);
        batch.clear();
        batchBytes[partition] = 0;
        sendRecord(TopicCodec.SNAPSHOT_ROWS.record(topic, partition, message));
    }

    private void sendRecord(ProducerRecord<byte[], byte[]> record) {
        rowsUnacknowledged.incrementAndGet();
        try {
            producer.send(record, rowCallback);
        } catch (RuntimeException e) {
            settleRow();
            throw e;
        }
    }

    /**
     * Sends every open batch, so every row given to {@link #send} so far is handed to the producer (the reader does
     * at each fetch-sized step, which bounds how long a row waits in a batch); blocks while the producer's buffer is
     * full.
     */
    public void flush() {
        for (int p = 0; p < partitions; p++) {
            if (!batches.get(p).isEmpty()) {
                sendBatch(p);
            }
        }
    }

    /**
     * Ends the attempt's rows: no row may follow. The batches still open are sent; the done marker, with
     * {@code chunkHighWatermark}, goes to every partition from {@link #settle()} once every row is acknowledged.
     */
    public void finish(Lsn chunkHighWatermark) {
        if (highWatermark != null) {
            throw new IllegalStateException("Chunk " + task.chunkId() + " is finished already");
        }
        Objects.requireNonNull(chunkHighWatermark, "chunkHighWatermark");
        flush();
        highWatermark = chunkHighWatermark;
        settleRow();
        settle();
    }

    /** The failure an acknowledgement means once the producer's cluster changed, else null. */
    private Exception clusterChange() {
        try {
            cluster.check("The snapshot workers' producer");
            return null;
        } catch (ClusterChangedException e) {
            return e;
        }
    }

    private void settleRow() {
        if (rowsUnacknowledged.decrementAndGet() == 0) {
            rowsAcknowledged.complete(null);
        }
    }

    /**
     * Moves the publication on, on the publishing thread: once every row is acknowledged, sends the done markers
     * (blocking while the producer's buffer is full). Returns whether the publication is over: the done markers
     * are acknowledged, or a record failed.
     */
    public boolean settle() {
        if (!markersSent && rowsAcknowledged.isDone() && !rowsAcknowledged.isCompletedExceptionally()) {
            markersSent = true;
            SnapshotRowsMessage done = ChunkDone.of(task, highWatermark, rows);
            List<ProducerRecord<byte[], byte[]>> records =
                TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(topic, partitions, done);
            markersUnacknowledged.set(records.size());
            for (ProducerRecord<byte[], byte[]> record : records) {
                try {
                    producer.send(record, markerCallback);
                } catch (RuntimeException e) {
                    acknowledged.completeExceptionally(e);
                    break;
                }
            }
        }
        return acknowledged.isDone();
    }

    /**
     * What the publication waits for now: the rows' acknowledgement until the done markers are sent, then
     * {@link #acknowledged()}. Call {@link #settle()} once it completes.
     */
    public CompletableFuture<Void> pending() {
        return markersSent ? acknowledged : rowsAcknowledged;
    }

    /**
     * Completes when every row and the done markers are acknowledged; fails with the first send error (then no done
     * marker was sent, if a row failed). Moved on by {@link #settle()}.
     */
    public CompletableFuture<Void> acknowledged() {
        return acknowledged;
    }

    /** The attempt being published. */
    public ChunkTask task() {
        return task;
    }

    /** Rows sent so far (or waiting in their partition's batch). */
    public long rows() {
        return rows;
    }

    /** The high watermark given to {@link #finish}, or null before. */
    public Lsn highWatermark() {
        return highWatermark;
    }
}
