package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.SourceTable;
import java.util.Objects;

/**
 * The source tables a data query reads: a schema pattern ({@code public} when the rule names none) and a table
 * pattern. Immutable.
 *
 * @param schema the schema pattern
 * @param table  the table pattern
 */
public record TablePattern(NamePattern schema, NamePattern table) {

    public TablePattern {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    /** Whether {@code source} is one of the tables. */
    public boolean matches(SourceTable source) {
        return schema.matches(source.schema()) && table.matches(source.name());
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
