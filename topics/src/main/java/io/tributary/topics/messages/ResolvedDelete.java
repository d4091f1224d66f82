package io.tributary.topics.messages;

import java.util.Objects;

/**
 * The row is gone, on {@code rows}. On the wire it is a real Kafka tombstone (a null value) under the row key, so
 * compaction eventually removes the key; decoding a tombstone yields this record.
 *
 * @param table the source table
 * @param pk    the deleted row's primary key
 */
public record ResolvedDelete(TableId table, KeyValues pk) implements RowsMessage, RowKeyed {

    public ResolvedDelete {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(pk, "pk");
    }

    /** The delete of the row with key {@code key}. */
    public static ResolvedDelete of(RowKey key) {
        return new ResolvedDelete(key.table(), key.pk());
    }
}
