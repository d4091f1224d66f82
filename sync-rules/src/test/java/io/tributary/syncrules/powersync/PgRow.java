package io.tributary.syncrules.powersync;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A source row with its values in column order.
 *
 * @param schema the source schema
 * @param table  the source table
 * @param values the column values, in column order
 */
public record PgRow(String schema, String table, List<PgValue> values) {

    public PgRow {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        values = List.copyOf(values);
    }

    /** The row as Tributary's canonical row JSON: a compact object, keys in column order. */
    public String canonicalJson() {
        return values.stream().map(v -> quote(v.column()) + ":" + v.canonical())
            .collect(Collectors.joining(",", "{", "}"));
    }

    /** {@code schema.table}. */
    public String sourceTable() {
        return schema + "." + table;
    }

    private static String quote(String name) {
        return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
