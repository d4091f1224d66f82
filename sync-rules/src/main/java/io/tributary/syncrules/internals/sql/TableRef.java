package io.tributary.syncrules.internals.sql;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code FROM [schema.]table [[AS] alias]}; names may hold the wildcard {@code %}.
 *
 * @param keywordOffset offset of the {@code FROM} keyword
 * @param schema        the schema pattern if written
 * @param table         the table name pattern
 * @param alias         the alias if written
 */
public record TableRef(int keywordOffset, Optional<Identifier> schema, Identifier table, Optional<Identifier> alias) {

    public TableRef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(alias, "alias");
    }
}
