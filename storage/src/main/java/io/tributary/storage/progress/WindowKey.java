package io.tributary.storage.progress;

import java.util.Objects;

/**
 * One snapshot window of one source table.
 *
 * @param schema   the table's schema, exactly as Postgres stores it
 * @param table    the table's name, exactly as Postgres stores it
 * @param windowId the window id, non-empty
 */
public record WindowKey(String schema, String table, String windowId) {

    public WindowKey {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(windowId, "windowId");
        if (schema.isEmpty() || table.isEmpty() || windowId.isEmpty()) {
            throw new IllegalArgumentException("A window key needs a schema, a table and a window id, got "
                + schema + "." + table + "/" + windowId);
        }
    }

    /** The window {@code windowId} of {@code schema.table}. */
    public static WindowKey of(String schema, String table, String windowId) {
        return new WindowKey(schema, table, windowId);
    }

    @Override
    public String toString() {
        return "\"" + schema + "\".\"" + table + "\"/" + windowId;
    }
}
