package io.tributary.ingest.capture.internals;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tributary.ingest.capture.barrier.BarrierSchedule;
import io.tributary.ingest.capture.barrier.StoredBarrier;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.Lsn;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Handles Debezium's batches, one Kafka transaction per batch: assembles each transaction (BEGIN .. END) with its
 * commit LSN, writes its messages to {@code changes}, a barrier when one is due (also stored in {@code ingest-offsets},
 * {@link StoredBarrier}), and the offsets of the newest transaction boundary of the batch to {@code ingest-offsets},
 * and commits them together; only then is the boundary marked processed, so the slot never moves past what Kafka
 * holds. A barrier thus becomes visible, in every partition, together with or after every event at or below its LSN.
 * If anything fails the Kafka transaction is aborted: a {@code read_committed} reader sees none of it, and the next
 * run resumes from the last committed offsets. Records of a transaction still open at the end of a batch are carried
 * into the next batch and never marked, so a restart always resumes at a transaction boundary and replays whole
 * transactions with the same commit LSN, seq and transaction id.
 *
 * <p>Called by one engine thread at a time.
 */
final class ChangeBatchHandler implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    private final ChangesProducer producer;
    private final SourceOffsets offsets;
    private final StoredBarrier storedBarrier;
    private final ChangeDecoder decoder;
    private final XidWidener widener;
    private final BarrierSchedule barriers;
    private final CaptureCounters counters;
    private final TransactionBuffer open = new TransactionBuffer();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private Lsn acknowledged;

    ChangeBatchHandler(ChangesProducer producer, SourceOffsets offsets, StoredBarrier storedBarrier,
                       ChangeDecoder decoder, XidWidener widener, BarrierSchedule barriers, CaptureCounters counters) {
        this.producer = producer;
        this.offsets = offsets;
        this.storedBarrier = storedBarrier;
        this.decoder = decoder;
        this.widener = widener;
        this.barriers = barriers;
        this.counters = counters;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
        throws InterruptedException {
        try {
            counters.batch();
            producer.begin();
            RecordChangeEvent<SourceRecord> boundary = null;
            Lsn committed = null;
            long events = 0;
            long transactions = 0;
            long markers = 0;
            for (RecordChangeEvent<SourceRecord> event : records) {
                SourceRecord record = event.record();
                switch (DebeziumRecords.kind(record)) {
                    case TX_BEGIN -> open.begin(DebeziumRecords.transactionId(record));
                    case TX_END -> {
                        long xid = DebeziumRecords.transactionId(record);
                        Lsn commitLsn = Lsn.of(DebeziumRecords.commitLsn(record));
                        for (ChangesMessage message : open.end(xid, commitLsn, widener.widen(xid))) {
                            producer.send(message);
                            if (message instanceof ChangeEvent) {
                                events++;
                            } else {
                                markers++;
                            }
                        }
                        transactions++;
                        committed = commitLsn;
                        boundary = event;
                    }
                    case HEARTBEAT -> {
                        if (!open.isOpen()) {
                            boundary = event;
                        }
                    }
                    case CHANGE -> decoder.change(record).ifPresent(open::add);
                    case MESSAGE -> decoder.window(record).ifPresent(open::add);
                    default -> {
                    }
                }
            }
            Lsn covered = committed != null ? committed : acknowledged;
            Optional<Barrier> barrier = barriers.next(Optional.ofNullable(covered), System.nanoTime());
            if (barrier.isPresent()) {
                producer.send(barrier.get());
                producer.send(storedBarrier.record(barrier.get()));
            }
            DebeziumEngine.Offsets resume = null;
            if (boundary != null) {
                Map<String, Object> resumeAt = resumeOffsets(boundary.record());
                producer.send(offsets.record(boundary.record().sourcePartition(), resumeAt));
                resume = committer.buildOffsets();
                for (Map.Entry<String, Object> entry : resumeAt.entrySet()) {
                    resume.set(entry.getKey(), entry.getValue());
                }
            }
            producer.commit();
            acknowledged = covered;
            counters.acknowledged(events, transactions, markers);
            barrier.ifPresent(counters::barrier);
            if (boundary != null) {
                committer.markProcessed(boundary, resume);
            }
            committer.markBatchFinished();
        } catch (SQLException e) {
            RuntimeException failed = new IllegalStateException("Source catalog read failed while encoding a change: "
                + e.getMessage(), e);
            abortQuietly(failed);
            throw fail(failed);
        } catch (RuntimeException e) {
            abortQuietly(e);
            throw fail(e);
        }
    }

    /**
     * The offsets stored for a boundary: its own, with {@code lsn} at its {@code lsn_commit} and without
     * {@code lsn_proc}. A restart then streams from the end of the last committed commit, and Postgres sends exactly
     * the transactions that committed after it. With {@code lsn_proc} Debezium searches the stream for the stored
     * position (its {@code WalPositionLocator}) and, when the next transaction has a change at exactly that LSN (the
     * WAL record right after the commit, written by a transaction that began before it), drops that transaction's
     * changes and passes only its BEGIN and COMMIT.
     */
    private static Map<String, Object> resumeOffsets(SourceRecord record) {
        Map<String, Object> offsets = new LinkedHashMap<>();
        Map<String, ?> own = record.sourceOffset();
        own.forEach((key, value) -> {
            if (!DebeziumRecords.OFFSET_LSN_PROC.equals(key)) {
                offsets.put(key, value);
            }
        });
        Object commit = own.get(DebeziumRecords.OFFSET_LSN_COMMIT);
        if (commit != null) {
            offsets.put(DebeziumRecords.OFFSET_LSN, commit);
        }
        return offsets;
    }

    private void abortQuietly(RuntimeException cause) {
        try {
            producer.abort();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private RuntimeException fail(RuntimeException e) {
        failure.compareAndSet(null, e);
        return e;
    }

    /** The first failure of a batch, as thrown (the engine may wrap it). */
    Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure.get());
    }
}
