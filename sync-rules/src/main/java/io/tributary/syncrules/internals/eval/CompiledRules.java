package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.EvaluationError;
import io.tributary.syncrules.EvaluationResult;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.SourceTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluation over compiled definitions. Which data queries read a source table is resolved once per table name
 * (wildcards included) and cached, so a row costs only its queries' compiled conditions and output.
 * Thread-safe.
 */
public final class CompiledRules {

    private record TablePlan(SourceTable table, DataQuery[] queries, String[] outputTables) {
        boolean isEmpty() {
            return queries.length == 0;
        }
    }

    private record RowKey(String bucket, String table, String id) {
    }

    private final List<BucketDefinition> definitions;
    private final ConcurrentHashMap<String, TablePlan> plans = new ConcurrentHashMap<>();

    public CompiledRules(List<BucketDefinition> definitions) {
        this.definitions = List.copyOf(definitions);
    }

    /** The definitions in rule order. */
    public List<BucketDefinition> definitions() {
        return definitions;
    }

    /** Whether any data query reads {@code sourceTable} ({@code schema.table}). */
    public boolean reads(String sourceTable) {
        return !plan(sourceTable).isEmpty();
    }

    /** The bucket rows of {@code row} of {@code sourceTable}, deduplicated per (bucket, table, id). */
    public EvaluationResult evaluate(String sourceTable, ObjectNode row) {
        TablePlan plan = plan(sourceTable);
        if (plan.isEmpty()) {
            return EvaluationResult.empty();
        }
        List<BucketRow> rows = new ArrayList<>(4);
        List<EvaluationError> errors = new ArrayList<>(0);
        int matched = 0;
        for (int i = 0; i < plan.queries().length; i++) {
            if (plan.queries()[i].evaluate(plan.table(), plan.outputTables()[i], row, rows, errors)) {
                matched++;
            }
        }
        if (matched > 1) {
            rows = firstPerKey(rows);
        }
        return new EvaluationResult(rows, errors);
    }

    /** The buckets {@code request} may see, over all definitions in rule order. */
    public List<BucketParameters> bucketsFor(RequestContext request) {
        List<BucketParameters> result = new ArrayList<>();
        for (BucketDefinition definition : definitions) {
            result.addAll(definition.bucketsFor(request));
        }
        return result;
    }

    private TablePlan plan(String sourceTable) {
        TablePlan plan = plans.get(sourceTable);
        return plan != null ? plan : plans.computeIfAbsent(sourceTable, this::newPlan);
    }

    private TablePlan newPlan(String sourceTable) {
        SourceTable table = SourceTable.parse(sourceTable);
        List<DataQuery> queries = new ArrayList<>();
        for (BucketDefinition definition : definitions) {
            for (DataQuery query : definition.dataQueries()) {
                if (query.reads(table)) {
                    queries.add(query);
                }
            }
        }
        String[] outputTables = queries.stream().map(q -> q.outputTable(table)).toArray(String[]::new);
        return new TablePlan(table, queries.toArray(new DataQuery[0]), outputTables);
    }

    private static List<BucketRow> firstPerKey(List<BucketRow> rows) {
        Set<RowKey> seen = new HashSet<>();
        List<BucketRow> unique = new ArrayList<>(rows.size());
        for (BucketRow row : rows) {
            if (seen.add(new RowKey(row.bucket(), row.table(), row.id()))) {
                unique.add(row);
            }
        }
        return unique;
    }
}
