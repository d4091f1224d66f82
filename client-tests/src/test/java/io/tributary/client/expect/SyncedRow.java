package io.tributary.client.expect;

import java.util.Comparator;
import java.util.Objects;

/**
 * One row of a bucket as a client stores it: its table ({@code object_type}), id and data, the exact JSON text
 * the sync stream delivered.
 */
public record SyncedRow(String table, String id, String data) implements Comparable<SyncedRow> {

    private static final Comparator<SyncedRow> ORDER = Comparator.comparing(SyncedRow::table)
        .thenComparing(SyncedRow::id).thenComparing(SyncedRow::data);

    public SyncedRow {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(data, "data");
    }

    @Override
    public int compareTo(SyncedRow other) {
        return ORDER.compare(this, other);
    }
}
