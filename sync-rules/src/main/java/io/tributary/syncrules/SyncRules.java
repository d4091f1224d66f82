package io.tributary.syncrules;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.internals.eval.BucketDefinition;
import io.tributary.syncrules.internals.eval.CompiledRules;
import io.tributary.syncrules.internals.eval.DataQuery;
import io.tributary.syncrules.internals.eval.RulesCompiler;
import io.tributary.syncrules.internals.yaml.RulesDocument;
import io.tributary.syncrules.internals.yaml.RulesYaml;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed and compiled sync rules document (see the package documentation for the language).
 *
 * <p>Parsing checks everything that can be checked without data and fails with every problem found, each at its
 * line and column. Evaluation never parses SQL: each data query is compiled once into resolved column accessors,
 * and the queries reading a source table are resolved once per table name.
 *
 * <p>Immutable and thread-safe: one instance can evaluate rows from many threads.
 */
public final class SyncRules {

    private final String yaml;
    private final CompiledRules rules;

    private SyncRules(String yaml, CompiledRules rules) {
        this.yaml = yaml;
        this.rules = rules;
    }

    /**
     * Parses and compiles a sync rules YAML document.
     *
     * @throws SyncRulesException with every problem found (YAML syntax, unknown keys, unsupported or invalid SQL)
     */
    public static SyncRules parse(String yaml) {
        Objects.requireNonNull(yaml, "yaml");
        List<Problem> problems = new ArrayList<>();
        RulesDocument document = RulesYaml.read(yaml, problems);
        List<BucketDefinition> definitions = RulesCompiler.compile(document.definitions(), problems);
        if (!problems.isEmpty()) {
            throw new SyncRulesException(problems);
        }
        return new SyncRules(yaml, new CompiledRules(definitions, document.edition()));
    }

    /** The YAML document these rules were parsed from. */
    public String yaml() {
        return yaml;
    }

    /** The edition output values are written in ({@code config: edition:}; {@link Edition#LEGACY} by default). */
    public Edition edition() {
        return rules.edition();
    }

    /** The bucket definition names, in document order. */
    public List<String> definitionNames() {
        return rules.definitions().stream().map(BucketDefinition::name).toList();
    }

    /**
     * The sync priority of the buckets of definition {@code definition} (its {@code priority:} key): 0 is synced
     * first, 3 (the default) last.
     *
     * @throws IllegalArgumentException if there is no such definition
     */
    public int priority(String definition) {
        return rules.definitions().stream().filter(d -> d.name().equals(definition)).findFirst()
            .map(BucketDefinition::priority)
            .orElseThrow(() -> new IllegalArgumentException("No bucket definition " + definition));
    }

    /**
     * The source tables, among {@code sourceTables} ({@code schema.table}, exact case), that at least one data
     * query or parameter query reads, in the order given: the tables to capture.
     *
     * @throws IllegalArgumentException if a name is not {@code schema.table}
     */
    public Set<String> tablesMatching(Collection<String> sourceTables) {
        Set<String> matching = new LinkedHashSet<>();
        for (String table : sourceTables) {
            if (rules.reads(table)) {
                matching.add(table);
            }
        }
        return matching;
    }

    /**
     * Where each data query's output {@code id} comes from, over all definitions in document order: the source
     * column and the position of the item that produces it. A source row's id must be its table's key for one
     * row's versions to stay in order downstream; this is what a deploy checks against the source catalog.
     */
    public List<DataQueryId> dataQueryIds() {
        List<DataQueryId> ids = new ArrayList<>();
        for (BucketDefinition definition : rules.definitions()) {
            for (DataQuery query : definition.dataQueries()) {
                ids.add(new DataQueryId(query.location(), query.tables().toString(), query::reads, query.idColumn(),
                    query.idLine(), query.idColumnNumber()));
            }
        }
        return List.copyOf(ids);
    }

    /**
     * Whether at least one data query or parameter query reads {@code sourceTable} ({@code schema.table}): a table
     * to capture and to wait for before a checkpoint.
     */
    public boolean reads(String sourceTable) {
        return rules.reads(sourceTable);
    }

    /** The tables parameter queries with FROM read ({@code schema.table}; never a wildcard), in rule order. */
    public Set<String> parameterTables() {
        return rules.parameterTables();
    }

    /** Whether at least one parameter query (with FROM) reads {@code sourceTable} ({@code schema.table}). */
    public boolean readsParameters(String sourceTable) {
        return rules.readsParameters(sourceTable);
    }

    /**
     * The parameter rows a row of {@code sourceTable} stores for the parameter queries reading that table, at most
     * one per lookup (PowerSync's {@code evaluateParameterRow}). A row whose lookup values or selected values are
     * null stores nothing. A table no parameter query reads yields none.
     *
     * @param rowJson the canonical row, UTF-8 JSON
     * @throws IllegalArgumentException if {@code sourceTable} is not {@code schema.table} or the row not a JSON
     *                                  object
     */
    public List<ParameterRow> parameterRows(String sourceTable, byte[] rowJson) {
        return rules.parameterRows(sourceTable, Objects.requireNonNull(rowJson, "rowJson"));
    }

    /**
     * The buckets a client with this request context may see: the ones its request decides, plus the lookups to
     * read at a checkpoint for the others (PowerSync's {@code getBucketParameterQuerier}).
     */
    public ParameterQuerier querier(RequestContext request) {
        return rules.querier(Objects.requireNonNull(request, "request"));
    }

    /**
     * The buckets a row of {@code sourceTable} belongs to, with its output row, plus per-row errors (e.g. a null
     * id). A table no query reads yields an empty result.
     *
     * @param sourceTable {@code schema.table}, exact case
     * @param row         the canonical row: a JSON object keyed by source column name; it is not modified
     * @throws IllegalArgumentException if {@code sourceTable} is not {@code schema.table}
     */
    public EvaluationResult evaluate(String sourceTable, ObjectNode row) {
        return rules.evaluate(sourceTable, Objects.requireNonNull(row, "row"));
    }

    /**
     * As {@link #evaluate(String, ObjectNode)} for a row given as UTF-8 JSON. Non-integer numbers are read as exact
     * decimals, so their text (e.g. {@code 1.50}) is kept in the output.
     *
     * <p>Of a row in the canonical form (compact, as Jackson writes it; see the package documentation) only the
     * columns the table's queries read are parsed, unless a query selects {@code *}. The result is the same as from
     * the tree.
     *
     * @throws IllegalArgumentException if the bytes are not a JSON object
     */
    public EvaluationResult evaluate(String sourceTable, byte[] rowJson) {
        return rules.evaluate(sourceTable, Objects.requireNonNull(rowJson, "rowJson"), null);
    }

    /** As {@link #evaluate(String, byte[])} for a row given as a JSON string. */
    public EvaluationResult evaluate(String sourceTable, String rowJson) {
        return rules.evaluate(sourceTable, rowJson.getBytes(StandardCharsets.UTF_8), rowJson);
    }

    /**
     * The buckets a client with this request context may see from parameter queries without FROM, over all
     * definitions in document order: global buckets always, parameterized ones once per combination of parameter
     * values (an array value gives one bucket per element; a null or missing value gives none). Buckets of
     * parameter queries with FROM depend on stored parameter rows: see {@link #querier(RequestContext)}.
     */
    public List<BucketParameters> parameterValues(RequestContext request) {
        return rules.bucketsFor(Objects.requireNonNull(request, "request"));
    }

    /** The names of the buckets of {@link #parameterValues(RequestContext)}. */
    public List<String> bucketsFor(RequestContext request) {
        return parameterValues(request).stream().map(BucketParameters::bucket).toList();
    }
}
