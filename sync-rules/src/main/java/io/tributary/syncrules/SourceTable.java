package io.tributary.syncrules;

import java.util.Objects;

/**
 * A source table name as it appears in Postgres: schema and table, exact case, unquoted.
 *
 * @param schema the schema, e.g. {@code public} or {@code tenant_7}
 * @param name   the table name, e.g. {@code orders}
 */
public record SourceTable(String schema, String name) {

    public SourceTable {
        if (schema == null || schema.isEmpty() || name == null || name.isEmpty()) {
            throw new IllegalArgumentException("schema and table name must be non-empty: " + schema + "." + name);
        }
    }

    /**
     * Parses {@code schema.table}; the schema ends at the first dot.
     *
     * @throws IllegalArgumentException if there is no schema or no table name
     */
    public static SourceTable parse(String qualifiedName) {
        Objects.requireNonNull(qualifiedName, "qualifiedName");
        int dot = qualifiedName.indexOf('.');
        if (dot <= 0 || dot == qualifiedName.length() - 1) {
            throw new IllegalArgumentException("expected a source table as schema.table, got '" + qualifiedName + "'");
        }
        return new SourceTable(qualifiedName.substring(0, dot), qualifiedName.substring(dot + 1));
    }

    /** {@code schema.table}. */
    public String qualifiedName() {
        return schema + "." + name;
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
