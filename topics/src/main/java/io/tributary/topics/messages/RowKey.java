package io.tributary.topics.messages;

import java.util.Objects;

/**
 * The key of every row-keyed record: a source table and the canonical primary key of one of its rows. Two keys
 * built separately from equal parts encode to identical bytes.
 *
 * @param table the source table
 * @param pk    the primary key values (canonical JSON array text)
 */
public record RowKey(TableId table, KeyValues pk) implements RecordKey {

    public RowKey {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(pk, "pk");
    }

    /** The key of the row of {@code table} with primary key {@code pk}. */
    public static RowKey of(TableId table, KeyValues pk) {
        return new RowKey(table, pk);
    }

    @Override
    public String toString() {
        return table + pk.json();
    }
}
