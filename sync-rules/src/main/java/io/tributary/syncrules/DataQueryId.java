package io.tributary.syncrules;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where one data query's output {@code id} comes from: the source column it is read from (empty when the id is a
 * literal) and the position of the SELECT item that produces it ({@code col AS id}, {@code id}, or {@code *}).
 * Immutable.
 */
public final class DataQueryId {

    private final String query;
    private final String tables;
    private final Predicate<SourceTable> reads;
    private final Optional<String> sourceColumn;
    private final int line;
    private final int column;

    DataQueryId(String query, String tables, Predicate<SourceTable> reads, Optional<String> sourceColumn, int line,
                int column) {
        this.query = Objects.requireNonNull(query, "query");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.sourceColumn = Objects.requireNonNull(sourceColumn, "sourceColumn");
        this.line = line;
        this.column = column;
    }

    /** Where the query is in the rules, e.g. {@code by_user.data[0]}. */
    public String query() {
        return query;
    }

    /** The tables the query reads as written ({@code schema.table}, possibly with {@code %} wildcards). */
    public String tables() {
        return tables;
    }

    /** Whether the query reads {@code table}. */
    public boolean reads(SourceTable table) {
        return reads.test(table);
    }

    /** The source column the id is read from, exact case; empty when the id is a literal. */
    public Optional<String> sourceColumn() {
        return sourceColumn;
    }

    /** The 1-based line in the rules document of the SELECT item that produces the id. */
    public int line() {
        return line;
    }

    /** The 1-based column (in code points) in that line. */
    public int column() {
        return column;
    }

    @Override
    public String toString() {
        return query + " id " + sourceColumn.orElse("(literal)") + " at " + line + ":" + column + " FROM " + tables;
    }
}
