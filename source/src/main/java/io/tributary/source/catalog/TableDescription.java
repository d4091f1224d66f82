package io.tributary.source.catalog;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link SourceCatalog#describeAll} found for one table: its schema, or why it cannot be replicated as it is
 * (the exception {@link SourceCatalog#describe} throws for it). Immutable.
 */
public final class TableDescription {

    private final TableSchema schema;
    private final SourceSchemaException problem;

    private TableDescription(TableSchema schema, SourceSchemaException problem) {
        this.schema = schema;
        this.problem = problem;
    }

    /** A table that can be replicated. */
    static TableDescription of(TableSchema schema) {
        return new TableDescription(Objects.requireNonNull(schema, "schema"), null);
    }

    /** A table that cannot be replicated as it is (or does not exist). */
    static TableDescription failed(SourceSchemaException problem) {
        return new TableDescription(null, Objects.requireNonNull(problem, "problem"));
    }

    /**
     * The schema.
     *
     * @throws SourceSchemaException the table's problem (a {@link TableNotFoundException} if it does not exist)
     */
    public TableSchema schema() {
        if (problem != null) {
            throw problem;
        }
        return schema;
    }

    /** Why the table cannot be replicated as it is; empty if it can. */
    public Optional<SourceSchemaException> problem() {
        return Optional.ofNullable(problem);
    }
}
