package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.SourceTable;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.Identifier;
import io.tributary.syncrules.internals.sql.Query;
import io.tributary.syncrules.internals.sql.SelectItem;
import io.tributary.syncrules.internals.sql.SqlException;
import io.tributary.syncrules.internals.sql.TableRef;
import io.tributary.topics.json.CanonicalJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A compiled table parameter query, PowerSync's {@code SqlParameterQuery}:
 * {@code SELECT list_id FROM list_members WHERE user_id = request.user_id()}.
 *
 * <p>The WHERE is compiled as PowerSync compiles it ({@link ParameterMatch}): lookup terms
 * ({@code column = <request value>} either way round, {@code column IN <request array>},
 * {@code <request value> IN column}), conditions on request values alone and conditions on the row alone, under
 * AND and OR. A source row is stored under one lookup {@code [definition, query, values of the inputs...]} per
 * parameter set it gives, with the bucket parameters it selects; a client looks up
 * {@code [definition, query, its values of the inputs...]} and gets one bucket per row found. Values on both sides
 * are bucket parameter texts, so a row's {@code 5} matches a claim's {@code 5} and a text {@code '5'} does not, as
 * in PowerSync. A lookup column or selected column whose value is null (or no bucket parameter value) stores
 * nothing; a request value that is missing looks nothing up.
 *
 * <p>Immutable and thread-safe.
 */
final class TableParameterQuery {

    private static final String DEFAULT_SCHEMA = "public";

    /** A bucket parameter: the row's column (stored with the row), or a request value (read at query time). */
    private record Output(String name, Optional<String> column, Optional<ValueSource<RequestContext>> request) {
    }

    private final String definition;
    private final int index;
    private final SourceTable table;
    private final List<Output> outputs;
    private final ParameterMatch match;

    private TableParameterQuery(String definition, int index, SourceTable table, List<Output> outputs,
                                ParameterMatch match) {
        this.definition = definition;
        this.index = index;
        this.table = table;
        this.outputs = List.copyOf(outputs);
        this.match = match;
    }

    /** Compiles parameter query {@code index} of {@code definition}, a query with FROM. */
    static TableParameterQuery compile(String definition, int index, Query query) throws SqlException {
        TableRef from = query.from().orElseThrow();
        if (from.alias().isPresent()) {
            throw new SqlException(from.alias().get().offset(), "table aliases are not supported in parameter "
                + "queries; name columns by the table (" + from.table().value() + ".column) or not at all");
        }
        for (Identifier name : from.schema().map(s -> List.of(s, from.table())).orElse(List.of(from.table()))) {
            if (name.hasWildcard()) {
                throw new SqlException(name.offset(), "the wildcard % is not supported in parameter queries: "
                    + "a parameter query reads one table");
            }
        }
        SourceTable table = new SourceTable(from.schema().map(Identifier::value).orElse(DEFAULT_SCHEMA),
            from.table().value());
        RowOperands row = new RowOperands(Set.of(from.table().value()));
        RequestOperands request = new RequestOperands();
        List<Output> outputs = new ArrayList<>();
        for (SelectItem item : query.items()) {
            if (!(item instanceof SelectItem.Value value)) {
                throw new SqlException(item.offset(), "parameter queries cannot select *; select the columns "
                    + "that name buckets (SELECT id AS list_id FROM ...)");
            }
            Output output = output(value, row, request);
            if (outputs.stream().anyMatch(o -> o.name().equals(output.name()))) {
                throw new SqlException(item.offset(), "duplicate parameter '" + output.name() + "'");
            }
            outputs.add(output);
        }
        ParameterMatch match = query.where().isPresent()
            ? compileWhere(Conditions.normalize(query.where().get()), row, request)
            : ParameterMatch.rowCondition(Filter.constant(true));
        if (match.inputs().stream().filter(ParameterMatch.Input::expands).count() > 1) {
            throw new SqlException(query.where().orElseThrow().offset(), "a parameter query can expand only one "
                + "request array (column IN <request value>); write one parameter query per array");
        }
        return new TableParameterQuery(definition, index, table, outputs, match);
    }

    /** Compiles a normalized WHERE into PowerSync's parameter match clauses. */
    private static ParameterMatch compileWhere(Expr condition, RowOperands row, RequestOperands request)
        throws SqlException {
        if (!RequestTerms.mentionsRequest(condition)) {
            return ParameterMatch.rowCondition(new FilterCompiler<>(row).compile(condition));
        }
        if (condition instanceof Expr.And and) {
            ParameterMatch match = compileWhere(and.operands().get(0), row, request);
            for (Expr operand : and.operands().subList(1, and.operands().size())) {
                match = ParameterMatch.and(match, compileWhere(operand, row, request), operand.offset());
                if (match.inputs().stream().filter(ParameterMatch.Input::expands).count() > 1) {
                    throw new SqlException(operand.offset(), "a parameter query can expand only one request array "
                        + "(column IN <request value>); write one parameter query per array");
                }
            }
            return match;
        }
        if (condition instanceof Expr.Or or) {
            ParameterMatch match = compileWhere(or.operands().get(0), row, request);
            for (Expr operand : or.operands().subList(1, or.operands().size())) {
                match = ParameterMatch.or(match, compileWhere(operand, row, request), or.offset());
            }
            return match;
        }
        if (!RequestTerms.mentionsColumn(condition) && !(condition instanceof Expr.In)) {
            return ParameterMatch.requestCondition(Describe.expression(condition),
                new FilterCompiler<>(request).compile(condition));
        }
        LookupTerm term = RequestTerms.lookupTerm(condition, row, request);
        return ParameterMatch.lookup(RequestTerms.requestKey(condition), term);
    }

    private static Output output(SelectItem.Value value, RowOperands row, RequestOperands request)
        throws SqlException {
        Expr expression = value.expression();
        if (expression instanceof Expr.ColumnRef column) {
            String name = value.alias().orElse(column.name());
            return new Output(name, Optional.of(row.column(column).name()), Optional.empty());
        }
        if (!RequestTerms.mentionsRequest(expression)) {
            throw new SqlException(value.offset(), "a parameter query selects columns of its table or request "
                + "values (request.user_id(), request.jwt() ->> 'claim', request.parameters() ->> 'name'), found "
                + Describe.expression(expression));
        }
        if (value.alias().isEmpty()) {
            throw new SqlException(value.offset(), "a parameter needs a name: add AS <name>");
        }
        return new Output(value.alias().get(), Optional.empty(), Optional.of(request.resolve(expression)));
    }

    /** The parameter names, in select order. */
    List<String> names() {
        return outputs.stream().map(Output::name).toList();
    }

    /** The table the query reads. */
    SourceTable table() {
        return table;
    }

    /** Whether the query reads {@code table}. */
    boolean reads(SourceTable source) {
        return table.equals(source);
    }

    /**
     * The parameter rows {@code row} of the query's table stores: one per lookup it makes (several when an array
     * column is tested with IN), each with the same bucket parameters; none when it fails the row conditions or a
     * lookup or selected value is null. Values are the row's client values in {@code edition}.
     */
    List<ParameterRow> evaluate(ObjectNode row, Edition edition) {
        List<Map<String, String>> sets;
        try {
            sets = match.rowSets(row, edition);
        } catch (ParameterMatch.RowError e) {
            return List.of();
        }
        if (sets.isEmpty()) {
            return List.of();
        }
        StringBuilder parameters = new StringBuilder("{");
        for (Output output : outputs) {
            if (output.column().isEmpty()) {
                continue;
            }
            Optional<String> text = ClientValues.parameterText(row.get(output.column().get()), edition);
            if (text.isEmpty()) {
                return List.of();
            }
            if (parameters.length() > 1) {
                parameters.append(',');
            }
            CanonicalJson.quote(output.name(), parameters);
            parameters.append(':').append(text.get());
        }
        String stored = parameters.append('}').toString();
        Set<String> lookups = new LinkedHashSet<>();
        for (Map<String, String> set : sets) {
            List<List<String>> values = new ArrayList<>(match.inputs().size());
            for (ParameterMatch.Input input : match.inputs()) {
                String value = set.get(input.key());
                if (value == null) {
                    break;
                }
                values.add(List.of(value));
            }
            if (values.size() == match.inputs().size()) {
                lookups.addAll(lookupKeys(values));
            }
        }
        return lookups.stream().map(lookup -> new ParameterRow(lookup, stored)).toList();
    }

    /**
     * Adds this query's lookups for {@code request} to {@code lookups} (several when a request array is expanded),
     * resolving each stored row to a bucket named in {@code order} (the definition's parameters); adds nothing when
     * a request value is missing.
     */
    void addLookups(RequestContext request, List<String> order, Map<String, ParameterQuerier.Resolver> lookups) {
        List<List<String>> values = new ArrayList<>(match.inputs().size());
        for (ParameterMatch.Input input : match.inputs()) {
            List<String> inputValues = input.values().apply(request);
            if (inputValues.isEmpty()) {
                return;
            }
            values.add(inputValues);
        }
        for (String lookup : lookupKeys(values)) {
            lookups.putIfAbsent(lookup, stored -> bucket(stored, request, order));
        }
    }

    private BucketParameters bucket(ObjectNode stored, RequestContext request, List<String> order) {
        String[] texts = new String[order.size()];
        for (Output output : outputs) {
            JsonNode value = output.column().isPresent() ? stored.get(output.name())
                : output.request().orElseThrow().get(request);
            Optional<String> text = Values.parameterText(value);
            if (text.isEmpty()) {
                return null;
            }
            texts[order.indexOf(output.name())] = text.get();
        }
        return new BucketParameters(definition, WherePlan.bucketName(definition, texts));
    }

    /** The lookup keys of every combination of {@code values} (one list per input, at most one longer than 1). */
    private List<String> lookupKeys(List<List<String>> values) {
        StringBuilder prefix = new StringBuilder("[");
        CanonicalJson.quote(definition, prefix);
        prefix.append(',').append(index);
        Set<String> keys = new LinkedHashSet<>();
        keys.add(prefix.toString());
        for (List<String> termValues : values) {
            Set<String> extended = new LinkedHashSet<>();
            for (String key : keys) {
                for (String value : termValues) {
                    extended.add(key + ',' + value);
                }
            }
            keys = extended;
        }
        return keys.stream().map(key -> key + ']').toList();
    }
}
