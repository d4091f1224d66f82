package io.tributary.syncrules;

import java.util.List;

/**
 * What one source row contributes to the buckets of a sync rules version.
 *
 * <p>{@code rows} holds at most one entry per {@code (bucket, table, id)}: when several data queries put the same
 * row id of the same output table into the same bucket, the first query in rule order wins.
 *
 * @param rows   the bucket rows, in rule order (definitions, then their data queries, then buckets)
 * @param errors rows that matched a query but could not be emitted
 */
public record EvaluationResult(List<BucketRow> rows, List<EvaluationError> errors) {

    private static final EvaluationResult EMPTY = new EvaluationResult(List.of(), List.of());

    public EvaluationResult {
        rows = List.copyOf(rows);
        errors = List.copyOf(errors);
    }

    /** The result for a row that no query selects. */
    public static EvaluationResult empty() {
        return EMPTY;
    }

    /** True when evaluation reported at least one error. */
    public boolean hasErrors() {
        return !errors.isEmpty();
    }
}
