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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A compiled table parameter query, PowerSync's {@code SqlParameterQuery}:
 * {@code SELECT list_id FROM list_members WHERE user_id = request.user_id()}.
 *
 * <p>The WHERE is an AND of <em>lookup terms</em> ({@code column = <request value>}, either way round) and
 * <em>row conditions</em> (columns and literals only, any shape). A source row that passes the row conditions is
 * stored under the lookup {@code [definition, query, values of the lookup columns...]} with the bucket parameters
 * it selects; a client looks up {@code [definition, query, its request values...]} and gets one bucket per row
 * found. Values on both sides are bucket parameter texts, so a row's {@code 5} matches a claim's {@code 5} and a
 * text {@code '5'} does not, as in PowerSync. A lookup column or selected column whose value is null (or no
 * bucket parameter value) stores nothing; a request value that is missing looks nothing up.
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
    private final List<String> lookupColumns;
    private final List<ValueSource<RequestContext>> lookupValues;
    private final Filter<ObjectNode> rowFilter;

    private TableParameterQuery(String definition, int index, SourceTable table, List<Output> outputs,
                                List<String> lookupColumns, List<ValueSource<RequestContext>> lookupValues,
                                Filter<ObjectNode> rowFilter) {
        this.definition = definition;
        this.index = index;
        this.table = table;
        this.outputs = List.copyOf(outputs);
        this.lookupColumns = List.copyOf(lookupColumns);
        this.lookupValues = List.copyOf(lookupValues);
        this.rowFilter = rowFilter;
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
        List<String> lookupColumns = new ArrayList<>();
        List<ValueSource<RequestContext>> lookupValues = new ArrayList<>();
        List<Filter<ObjectNode>> rowConditions = new ArrayList<>();
        if (query.where().isPresent()) {
            Expr condition = Conditions.normalize(query.where().get());
            List<Expr> terms = condition instanceof Expr.And and ? and.operands() : List.of(condition);
            FilterCompiler<ObjectNode> filters = new FilterCompiler<>(row);
            for (Expr term : terms) {
                if (!RequestTerms.mentionsRequest(term)) {
                    rowConditions.add(filters.compile(term));
                    continue;
                }
                Expr.Comparison lookup = RequestTerms.lookupTerm(term);
                boolean columnLeft = lookup.left() instanceof Expr.ColumnRef;
                Expr.ColumnRef column = (Expr.ColumnRef) (columnLeft ? lookup.left() : lookup.right());
                lookupColumns.add(row.column(column).name());
                lookupValues.add(request.resolve(columnLeft ? lookup.right() : lookup.left()));
            }
        }
        Filter<ObjectNode> filter = rowConditions.isEmpty() ? Filter.constant(true) : Filter.and(rowConditions);
        return new TableParameterQuery(definition, index, table, outputs, lookupColumns, lookupValues, filter);
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
     * The parameter row {@code row} of the query's table stores, if any. Values are the row's client values in
     * {@code edition}.
     */
    Optional<ParameterRow> evaluate(ObjectNode row, Edition edition) {
        if (!rowFilter.test(row)) {
            return Optional.empty();
        }
        String[] values = new String[lookupColumns.size()];
        for (int i = 0; i < values.length; i++) {
            Optional<String> text = ClientValues.parameterText(row.get(lookupColumns.get(i)), edition);
            if (text.isEmpty()) {
                return Optional.empty();
            }
            values[i] = text.get();
        }
        StringBuilder parameters = new StringBuilder("{");
        for (Output output : outputs) {
            if (output.column().isEmpty()) {
                continue;
            }
            Optional<String> text = ClientValues.parameterText(row.get(output.column().get()), edition);
            if (text.isEmpty()) {
                return Optional.empty();
            }
            if (parameters.length() > 1) {
                parameters.append(',');
            }
            CanonicalJson.quote(output.name(), parameters);
            parameters.append(':').append(text.get());
        }
        return Optional.of(new ParameterRow(lookupKey(values), parameters.append('}').toString()));
    }

    /**
     * Adds this query's lookup for {@code request} to {@code lookups}, resolving each stored row to a bucket named
     * in {@code order} (the definition's parameters); adds nothing when a request value is missing.
     */
    void addLookups(RequestContext request, List<String> order, Map<String, ParameterQuerier.Resolver> lookups) {
        String[] values = new String[lookupValues.size()];
        for (int i = 0; i < values.length; i++) {
            Optional<String> text = Values.parameterText(lookupValues.get(i).get(request));
            if (text.isEmpty()) {
                return;
            }
            values[i] = text.get();
        }
        lookups.putIfAbsent(lookupKey(values), stored -> bucket(stored, request, order));
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

    private String lookupKey(String[] values) {
        StringBuilder key = new StringBuilder("[");
        CanonicalJson.quote(definition, key);
        key.append(',').append(index);
        for (String value : values) {
            key.append(',').append(value);
        }
        return key.append(']').toString();
    }
}
