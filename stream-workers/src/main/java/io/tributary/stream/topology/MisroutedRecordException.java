package io.tributary.stream.topology;

import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.messages.RowKey;

/**
 * A row-keyed record sits in another partition than its key hashes to: its producer broke co-partitioning, so
 * merging it here could reorder its key. It is dead-lettered, not merged.
 */
final class MisroutedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    MisroutedRecordException(RecordPosition position, RowKey key, int expectedPartition) {
        super("Record at " + position + " for key " + key + " belongs in partition " + expectedPartition);
    }
}
