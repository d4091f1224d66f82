package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.syncrules.internals.sql.ComparisonOperator;
import java.util.List;

/**
 * A compiled condition without bucket parameters over an input (a row or a request): true only when the SQL
 * condition is TRUE (UNKNOWN and FALSE both reject). Implementations are immutable and thread-safe.
 *
 * @param <T> the input
 */
@FunctionalInterface
public interface Filter<T> {

    /** Whether the condition holds for {@code input}. */
    boolean test(T input);

    /** A constant condition. */
    static <T> Filter<T> constant(boolean value) {
        return input -> value;
    }

    /** {@code left op right}. */
    static <T> Filter<T> comparison(ValueSource<T> left, ComparisonOperator operator, ValueSource<T> right) {
        if (right instanceof ValueSource.Constant<T> constant) {
            JsonNode literal = constant.value();
            if (Values.isNull(literal)) {
                return constant(false);
            }
            if (operator == ComparisonOperator.EQUAL && literal.isTextual()) {
                String text = literal.textValue();
                return input -> {
                    JsonNode value = left.get(input);
                    return value != null && value.isTextual() && value.textValue().equals(text);
                };
            }
            return input -> {
                int cmp = Values.compare(left.get(input), literal);
                return cmp != Values.INCOMPARABLE && operator.accepts(cmp);
            };
        }
        return input -> {
            int cmp = Values.compare(left.get(input), right.get(input));
            return cmp != Values.INCOMPARABLE && operator.accepts(cmp);
        };
    }

    /** {@code operand IS [NOT] NULL}. */
    static <T> Filter<T> isNull(ValueSource<T> operand, boolean negated) {
        return negated ? input -> !Values.isNull(operand.get(input)) : input -> Values.isNull(operand.get(input));
    }

    /** All of {@code filters}. */
    static <T> Filter<T> and(List<Filter<T>> filters) {
        if (filters.size() == 1) {
            return filters.get(0);
        }
        @SuppressWarnings("unchecked")
        Filter<T>[] all = filters.toArray(new Filter[0]);
        return input -> {
            for (Filter<T> filter : all) {
                if (!filter.test(input)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** Any of {@code filters}. */
    static <T> Filter<T> or(List<Filter<T>> filters) {
        if (filters.size() == 1) {
            return filters.get(0);
        }
        @SuppressWarnings("unchecked")
        Filter<T>[] any = filters.toArray(new Filter[0]);
        return input -> {
            for (Filter<T> filter : any) {
                if (filter.test(input)) {
                    return true;
                }
            }
            return false;
        };
    }
}
