package io.tributary.syncrules;

import java.util.Objects;

/**
 * A row that a data query selected but could not turn into a bucket row (e.g. its id is null).
 * Reported in the {@link EvaluationResult}, never thrown: one bad row must not stop replication.
 *
 * @param sourceTable the source table, {@code schema.table}
 * @param query       where the query is in the rules, e.g. {@code by_user.data[0]}
 * @param message     what is wrong
 */
public record EvaluationError(String sourceTable, String query, String message) {

    public EvaluationError {
        Objects.requireNonNull(sourceTable, "sourceTable");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return sourceTable + " (" + query + "): " + message;
    }
}
