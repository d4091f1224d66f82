package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The WHERE of a table parameter query compiled as PowerSync compiles it ({@code SqlParameterQuery}'s filter of
 * parameter match clauses): a row gives a list of <em>parameter sets</em>, each assigning a lookup value to every
 * input of the query, and a request gives the values of the same inputs. Each parameter set of a row is one lookup
 * it is stored under; the request's values (one per input, several for an expanded array) are the lookups it makes.
 *
 * <ul>
 *   <li>a lookup term ({@link LookupTerm}) is one input, keyed by its request value;</li>
 *   <li>a condition on request values alone is an input whose row value is always {@code 1} and whose request
 *       value is {@code 1} or {@code 0} as the condition holds;</li>
 *   <li>a condition on the row alone gives one empty parameter set or none;</li>
 *   <li>AND combines every pair of its sides' parameter sets (inputs of the same key: the first side's value);</li>
 *   <li>OR gives the parameter sets of both sides, which must have the same inputs.</li>
 * </ul>
 * Immutable and thread-safe.
 */
final class ParameterMatch {

    /** The lookup value a row gives a request condition, and the request gives one that holds. */
    static final String TRUE = "1";

    /**
     * One input: its key (the request value's text), whether the request expands it into several lookups, and how
     * a request gives its values (empty: the request cannot make the lookup).
     */
    record Input(String key, boolean expands, Function<RequestContext, List<String>> values) {
        Input {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(values, "values");
        }
    }

    /** A row whose value an input needs is no array (PowerSync reports the row as an error of the query). */
    static final class RowError extends Exception {
        RowError() {
            super(null, null, false, false);
        }
    }

    /** The parameter sets of a row: input key to lookup value. */
    @FunctionalInterface
    interface RowSets {
        List<Map<String, String>> of(ObjectNode row, Edition edition) throws RowError;
    }

    private final List<Input> inputs;
    private final boolean unbounded;
    private final RowSets rowSets;
    private final Optional<Filter<ObjectNode>> rowOnly;
    private final Optional<Filter<RequestContext>> requestOnly;

    private ParameterMatch(List<Input> inputs, boolean unbounded, RowSets rowSets,
                           Optional<Filter<ObjectNode>> rowOnly, Optional<Filter<RequestContext>> requestOnly) {
        this.inputs = List.copyOf(inputs);
        this.unbounded = unbounded;
        this.rowSets = rowSets;
        this.rowOnly = rowOnly;
        this.requestOnly = requestOnly;
    }

    /** A condition on the row alone: one empty parameter set when it holds, none otherwise. */
    static ParameterMatch rowCondition(Filter<ObjectNode> filter) {
        return new ParameterMatch(List.of(), false,
            (row, edition) -> filter.test(row) ? List.of(Map.of()) : List.of(), Optional.of(filter), Optional.empty());
    }

    /** A condition on request values alone, {@code key} its text. */
    static ParameterMatch requestCondition(String key, Filter<RequestContext> filter) {
        return requestInput(key, filter);
    }

    /** A lookup term, {@code key} the text of its request value. */
    static ParameterMatch lookup(String key, LookupTerm term) {
        String inputKey = term.expandsRequest() ? key + "[*]" : key;
        Input input = new Input(inputKey, term.expandsRequest(), term::requestValues);
        return new ParameterMatch(List.of(input), term.expandsRow(), (row, edition) -> {
            Optional<List<String>> values = term.rowValues(row, edition);
            if (values.isEmpty()) {
                throw new RowError();
            }
            List<Map<String, String>> sets = new ArrayList<>(values.get().size());
            values.get().forEach(value -> sets.add(Map.of(inputKey, value)));
            return sets;
        }, Optional.empty(), Optional.empty());
    }

    /** Both sides, PowerSync's {@code andFilters}. */
    static ParameterMatch and(ParameterMatch a, ParameterMatch b, int offset) throws SqlException {
        if (a.rowOnly.isPresent() && b.rowOnly.isPresent()) {
            return rowCondition(Filter.and(List.of(a.rowOnly.get(), b.rowOnly.get())));
        }
        if (a.requestOnly.isPresent() && b.requestOnly.isPresent()) {
            return requestInput("and(" + a.inputs.get(0).key() + "," + b.inputs.get(0).key() + ")",
                Filter.and(List.of(a.requestOnly.get(), b.requestOnly.get())));
        }
        if (a.unbounded && b.unbounded) {
            throw new SqlException(offset, "a parameter query can test only one array column "
                + "(<request value> IN column); write one parameter query per array column");
        }
        Map<String, Input> inputs = new LinkedHashMap<>();
        a.inputs.forEach(input -> inputs.putIfAbsent(input.key(), input));
        b.inputs.forEach(input -> inputs.putIfAbsent(input.key(), input));
        return new ParameterMatch(new ArrayList<>(inputs.values()), a.unbounded || b.unbounded, (row, edition) -> {
            List<Map<String, String>> left = a.rowSets.of(row, edition);
            List<Map<String, String>> right = b.rowSets.of(row, edition);
            List<Map<String, String>> sets = new ArrayList<>(left.size() * right.size());
            for (Map<String, String> first : left) {
                for (Map<String, String> second : right) {
                    Map<String, String> combined = new LinkedHashMap<>(first);
                    for (Map.Entry<String, String> entry : second.entrySet()) {
                        String held = combined.get(entry.getKey());
                        if (held != null && !held.equals(entry.getValue())) {
                            break;
                        }
                        combined.put(entry.getKey(), entry.getValue());
                    }
                    sets.add(combined);
                }
            }
            return sets;
        }, Optional.empty(), Optional.empty());
    }

    /** Either side, PowerSync's {@code orFilters}: both sides must have the same inputs. */
    static ParameterMatch or(ParameterMatch a, ParameterMatch b, int offset) throws SqlException {
        if (a.rowOnly.isPresent() && b.rowOnly.isPresent()) {
            return rowCondition(Filter.or(List.of(a.rowOnly.get(), b.rowOnly.get())));
        }
        if (a.requestOnly.isPresent() && b.requestOnly.isPresent()) {
            return requestInput("or(" + a.inputs.get(0).key() + "," + b.inputs.get(0).key() + ")",
                Filter.or(List.of(a.requestOnly.get(), b.requestOnly.get())));
        }
        Map<String, Input> inputs = new LinkedHashMap<>();
        a.inputs.forEach(input -> inputs.putIfAbsent(input.key(), input));
        b.inputs.forEach(input -> inputs.putIfAbsent(input.key(), input));
        if (inputs.size() != a.inputs.size() || inputs.size() != b.inputs.size()) {
            throw new SqlException(offset, "both sides of OR must look up the same request values (found "
                + keys(a) + " and " + keys(b) + "); write one parameter query per side");
        }
        return new ParameterMatch(new ArrayList<>(inputs.values()), a.unbounded || b.unbounded, (row, edition) -> {
            List<Map<String, String>> sets = new ArrayList<>(a.rowSets.of(row, edition));
            sets.addAll(b.rowSets.of(row, edition));
            return sets;
        }, Optional.empty(), Optional.empty());
    }

    /** The inputs, in the order their values appear in a lookup. */
    List<Input> inputs() {
        return inputs;
    }

    /** The parameter sets of {@code row}. */
    List<Map<String, String>> rowSets(ObjectNode row, Edition edition) throws RowError {
        return rowSets.of(row, edition);
    }

    private static ParameterMatch requestInput(String key, Filter<RequestContext> filter) {
        Input input = new Input(key, false, request -> List.of(filter.test(request) ? TRUE : "0"));
        return new ParameterMatch(List.of(input), false, (row, edition) -> List.of(Map.of(key, TRUE)),
            Optional.empty(), Optional.of(filter));
    }

    private static String keys(ParameterMatch match) {
        return match.inputs.stream().map(Input::key).toList().toString();
    }
}
