package io.tributary.topics.messages;

import java.util.List;
import java.util.Objects;

/**
 * Several change events in one record of {@code changes}: changes of one ingest batch whose keys all hash to the
 * partition the record is written to, in source commit order. The merge decides a batch exactly as it would decide
 * each of its events in a record of its own, in order (docs/design.md); the batch only saves the per-record work of
 * the producer, the broker and Kafka Streams. Its record key is the {@link RowKey} of its first event, so a batch
 * lands in the partition of its events.
 *
 * @param events the events, in source commit order; at least one; unmodifiable
 */
public record ChangeEventBatch(List<ChangeEvent> events) implements ChangesMessage {

    public ChangeEventBatch {
        events = List.copyOf(Objects.requireNonNull(events, "events"));
        if (events.isEmpty()) {
            throw new IllegalArgumentException("A change event batch needs at least one event");
        }
    }

    /** The batch of {@code events}. */
    public static ChangeEventBatch of(List<ChangeEvent> events) {
        return new ChangeEventBatch(events);
    }

    /** The record key: that of the first event. */
    @Override
    public RecordKey keyFor(int partition) {
        return events.get(0).rowKey();
    }
}
