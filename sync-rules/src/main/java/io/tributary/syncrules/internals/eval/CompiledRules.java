package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.EvaluationError;
import io.tributary.syncrules.EvaluationResult;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.SourceTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluation over compiled definitions. Which data queries read a source table is resolved once per table name
 * (wildcards included) and cached, so a row costs only its queries' compiled conditions and output.
 * Thread-safe.
 */
public final class CompiledRules {

    /**
     * The queries reading one table; {@code columns} are the columns they read as nodes (with a canonical row text),
     * empty if one of them needs the whole row as a tree.
     */
    private record TablePlan(SourceTable table, DataQuery[] queries, String[] outputTables,
                             Optional<ColumnSelection> columns) {
        boolean isEmpty() {
            return queries.length == 0;
        }
    }

    private record RowKey(String bucket, String table, String id) {
    }

    private final List<BucketDefinition> definitions;
    private final Edition edition;
    private final ConcurrentHashMap<String, TablePlan> plans = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, List<TableParameterQuery>> parameterPlans = new ConcurrentHashMap<>();

    /** Rules of {@code definitions} whose output values are written as the client gets them in {@code edition}. */
    public CompiledRules(List<BucketDefinition> definitions, Edition edition) {
        this.definitions = List.copyOf(definitions);
        this.edition = Objects.requireNonNull(edition, "edition");
    }

    /** The edition output values are written in. */
    public Edition edition() {
        return edition;
    }

    /** The definitions in rule order. */
    public List<BucketDefinition> definitions() {
        return definitions;
    }

    /** Whether any data query or parameter query reads {@code sourceTable} ({@code schema.table}). */
    public boolean reads(String sourceTable) {
        return !plan(sourceTable).isEmpty() || !parameterPlan(sourceTable).isEmpty();
    }

    /** The tables parameter queries with FROM read ({@code schema.table}), in rule order. */
    public Set<String> parameterTables() {
        Set<String> tables = new LinkedHashSet<>();
        definitions.forEach(d -> d.tableQueries().forEach(q -> tables.add(q.table().qualifiedName())));
        return tables;
    }

    /** Whether any parameter query reads {@code sourceTable} ({@code schema.table}). */
    public boolean readsParameters(String sourceTable) {
        return !parameterPlan(sourceTable).isEmpty();
    }

    /**
     * The parameter rows {@code json} (a row of {@code sourceTable}, UTF-8 JSON) stores, one per lookup: the first
     * query's row when two queries make the same lookup.
     *
     * @throws IllegalArgumentException if the text is not a JSON object
     */
    public List<ParameterRow> parameterRows(String sourceTable, byte[] json) {
        List<TableParameterQuery> queries = parameterPlan(sourceTable);
        if (queries.isEmpty()) {
            return List.of();
        }
        ObjectNode row = RowJsonParser.parseObject(json);
        Map<String, ParameterRow> rows = new LinkedHashMap<>();
        for (TableParameterQuery query : queries) {
            query.evaluate(row, edition).forEach(r -> rows.putIfAbsent(r.lookup(), r));
        }
        return List.copyOf(rows.values());
    }

    /** The buckets {@code request} may see: static ones and the lookups of the others. */
    public ParameterQuerier querier(RequestContext request) {
        Map<String, ParameterQuerier.Resolver> lookups = new LinkedHashMap<>();
        for (BucketDefinition definition : definitions) {
            definition.addLookups(request, lookups);
        }
        return new ParameterQuerier(bucketsFor(request), lookups);
    }

    /** The bucket rows of {@code row} of {@code sourceTable}, deduplicated per (bucket, table, id). */
    public EvaluationResult evaluate(String sourceTable, ObjectNode row) {
        TablePlan plan = plan(sourceTable);
        if (plan.isEmpty()) {
            return EvaluationResult.empty();
        }
        return evaluate(plan, row);
    }

    /**
     * As {@link #evaluate(String, ObjectNode)} for the row whose UTF-8 JSON text is {@code json} and, when the
     * caller has it, whose decoded text is {@code text} (else {@code null}). Of a canonical text
     * ({@link CanonicalRowScan}) only the columns the table's queries read are parsed, and the output of a query
     * that selects exactly {@code *} is written from the text ({@link StarOutput}), unless a query selects {@code *}
     * among other items. Any other text is parsed whole, from {@code text} if given.
     *
     * @throws IllegalArgumentException if the text is not a JSON object
     */
    public EvaluationResult evaluate(String sourceTable, byte[] json, String text) {
        TablePlan plan = plan(sourceTable);
        if (plan.isEmpty()) {
            return EvaluationResult.empty();
        }
        if (plan.columns().isPresent() && (text == null || isWellFormed(text))) {
            Optional<ColumnSelection.Read> read = plan.columns().get().read(json);
            if (read.isPresent()) {
                return evaluate(plan, read.get().columns(), read.get());
            }
        }
        return evaluate(plan, text == null ? RowJsonParser.parseObject(json) : RowJsonParser.parseObject(text),
            null);
    }

    private EvaluationResult evaluate(TablePlan plan, ObjectNode row) {
        return evaluate(plan, row, null);
    }

    private EvaluationResult evaluate(TablePlan plan, ObjectNode row, ColumnSelection.Read read) {
        List<BucketRow> rows = new ArrayList<>(4);
        List<EvaluationError> errors = new ArrayList<>(0);
        int matched = 0;
        for (int i = 0; i < plan.queries().length; i++) {
            if (plan.queries()[i].evaluate(plan.table(), plan.outputTables()[i], row, read, edition, rows,
                errors)) {
                matched++;
            }
        }
        if (matched > 1) {
            rows = firstPerKey(rows);
        }
        return new EvaluationResult(rows, errors);
    }

    /** The buckets {@code request} may see from parameter queries without FROM, over all definitions. */
    public List<BucketParameters> bucketsFor(RequestContext request) {
        List<BucketParameters> result = new ArrayList<>();
        for (BucketDefinition definition : definitions) {
            result.addAll(definition.bucketsFor(request));
        }
        return result;
    }

    private List<TableParameterQuery> parameterPlan(String sourceTable) {
        List<TableParameterQuery> plan = parameterPlans.get(sourceTable);
        return plan != null ? plan : parameterPlans.computeIfAbsent(sourceTable, name -> {
            SourceTable table = SourceTable.parse(name);
            return definitions.stream().flatMap(d -> d.tableQueries().stream()).filter(q -> q.reads(table))
                .toList();
        });
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
        Optional<ColumnSelection> columns = Optional.empty();
        if (queries.stream().allMatch(q -> !q.readsEveryColumn() || q.outputsWholeRow())) {
            Set<String> names = new LinkedHashSet<>();
            queries.forEach(q -> {
                names.addAll(q.columns());
                q.idColumn().ifPresent(names::add);
            });
            columns = Optional.of(new ColumnSelection(names));
        }
        return new TablePlan(table, queries.toArray(new DataQuery[0]), outputTables, columns);
    }

    /** Whether {@code text} has no unpaired surrogate, so that its UTF-8 encoding decodes back to it. */
    private static boolean isWellFormed(String text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
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
