package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.Query;
import io.tributary.syncrules.internals.sql.SelectItem;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A compiled request parameter query ({@code SELECT request.user_id() AS user_id [WHERE ...]}): the parameter
 * values a client may use. A value that is a JSON array contributes each of its scalar elements; null, missing
 * and object values contribute none (such a client gets no bucket from this query).
 * Immutable and thread-safe.
 */
final class ParameterQuery {

    private final List<String> names;
    private final List<ValueSource<RequestContext>> values;
    private final Filter<RequestContext> filter;

    private ParameterQuery(List<String> names, List<ValueSource<RequestContext>> values,
                           Filter<RequestContext> filter) {
        this.names = List.copyOf(names);
        this.values = List.copyOf(values);
        this.filter = filter;
    }

    /** Compiles {@code query}, a query without FROM (those with FROM are {@link TableParameterQuery}). */
    static ParameterQuery compile(Query query) throws SqlException {
        RequestOperands operands = new RequestOperands();
        List<String> names = new ArrayList<>();
        List<ValueSource<RequestContext>> values = new ArrayList<>();
        for (SelectItem item : query.items()) {
            if (!(item instanceof SelectItem.Value value)) {
                throw new SqlException(item.offset(), "parameter queries cannot select *");
            }
            values.add(operands.resolve(value.expression()));
            String name = name(value);
            if (names.contains(name)) {
                throw new SqlException(item.offset(), "duplicate parameter '" + name + "'");
            }
            names.add(name);
        }
        Filter<RequestContext> filter = Filter.constant(true);
        if (query.where().isPresent()) {
            filter = new FilterCompiler<>(operands).compile(Conditions.normalize(query.where().get()));
        }
        return new ParameterQuery(names, values, filter);
    }

    /** The parameter names, in select order. */
    List<String> names() {
        return names;
    }

    /**
     * The parameter value combinations for {@code request}, each as canonical JSON texts ordered as
     * {@code order} (a permutation of {@link #names()}).
     */
    List<String[]> combinations(RequestContext request, List<String> order) {
        if (!filter.test(request)) {
            return List.of();
        }
        List<String[]> result = new ArrayList<>();
        result.add(new String[order.size()]);
        for (int i = 0; i < names.size(); i++) {
            int slot = order.indexOf(names.get(i));
            List<String> texts = texts(values.get(i).get(request));
            List<String[]> next = new ArrayList<>(result.size() * texts.size());
            for (String[] partial : result) {
                for (String text : texts) {
                    String[] extended = partial.clone();
                    extended[slot] = text;
                    next.add(extended);
                }
            }
            result = next;
        }
        return result;
    }

    private static List<String> texts(JsonNode value) {
        if (value != null && value.isArray()) {
            List<String> texts = new ArrayList<>();
            for (JsonNode element : value) {
                Values.parameterText(element).filter(t -> !texts.contains(t)).ifPresent(texts::add);
            }
            return texts;
        }
        return Values.parameterText(value).map(List::of).orElse(List.of());
    }

    private static String name(SelectItem.Value item) throws SqlException {
        Optional<String> alias = item.alias();
        if (alias.isPresent()) {
            return alias.get();
        }
        Expr expression = item.expression();
        if (expression instanceof Expr.TokenParameterRef parameter) {
            return parameter.name();
        }
        throw new SqlException(item.offset(), "a parameter needs a name: add AS <name>");
    }
}
