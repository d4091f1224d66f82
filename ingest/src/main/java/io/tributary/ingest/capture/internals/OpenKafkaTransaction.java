package io.tributary.ingest.capture.internals;

import io.debezium.engine.RecordChangeEvent;
import io.tributary.topics.messages.Lsn;
import java.util.Optional;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What the open Kafka transaction on {@code changes} holds so far, over the Debezium batches it spans: the newest
 * source transaction boundary (the position to resume from once it is committed), the newest commit LSN written,
 * and counts for the capture counters. Not thread-safe (the batch handler owns it).
 */
final class OpenKafkaTransaction {

    private RecordChangeEvent<SourceRecord> boundary;
    private Lsn committed;
    private long events;
    private long transactions;
    private long markers;

    /** A message of a source transaction was sent: a row change event, or a marker. */
    void sent(boolean changeEvent) {
        if (changeEvent) {
            events++;
        } else {
            markers++;
        }
    }

    /** A whole source transaction, committed at {@code commitLsn}, was sent; its END is the newest boundary. */
    void committed(Lsn commitLsn, RecordChangeEvent<SourceRecord> end) {
        committed = commitLsn;
        boundary = end;
        transactions++;
    }

    /** A position between source transactions (a heartbeat) is the newest boundary. */
    void boundary(RecordChangeEvent<SourceRecord> event) {
        boundary = event;
    }

    Optional<RecordChangeEvent<SourceRecord>> boundary() {
        return Optional.ofNullable(boundary);
    }

    /** The commit LSN of the newest source transaction sent, if any. */
    Optional<Lsn> committed() {
        return Optional.ofNullable(committed);
    }

    long events() {
        return events;
    }

    long transactions() {
        return transactions;
    }

    long markers() {
        return markers;
    }

    /** Forgets everything: the transaction was committed or aborted. */
    void clear() {
        boundary = null;
        committed = null;
        events = 0;
        transactions = 0;
        markers = 0;
    }
}
