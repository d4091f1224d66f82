package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.RequestContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One term of a table parameter query's WHERE that joins a column of the row with a request value. Both sides give
 * lookup values (bucket parameter texts); the row is found when a value of the row side equals one of the request
 * side, as in PowerSync's {@code SqlParameterQuery}.
 *
 * @param kind        how the column and the request value are compared
 * @param column      the row's column
 * @param request     the request value
 * @param requestJson whether the request value comes from {@code ->} (its SQLite value is JSON text, so a string is
 *                    never expanded as an array)
 */
record LookupTerm(Kind kind, String column, ValueSource<RequestContext> request, boolean requestJson) {

    /** The three shapes PowerSync turns into lookups. */
    enum Kind {
        /** {@code column = <request value>}: one value on each side. */
        EQUAL,
        /**
         * {@code column IN <request array>}: the row stores its value, the request looks up each element of its
         * array (PowerSync's expanding input parameter; one per query).
         */
        COLUMN_IN_REQUEST,
        /**
         * {@code <request value> IN column}: the row stores each element of its array column, the request looks
         * up its value (one per query).
         */
        REQUEST_IN_COLUMN
    }

    LookupTerm {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(request, "request");
    }

    /** Whether a row makes several lookups for this term. */
    boolean expandsRow() {
        return kind == Kind.REQUEST_IN_COLUMN;
    }

    /** Whether a request makes several lookups for this term. */
    boolean expandsRequest() {
        return kind == Kind.COLUMN_IN_REQUEST;
    }

    /**
     * The values {@code row} stores under for this term (none for a null column); empty when the row's value
     * cannot be used (an array column that holds no array).
     */
    Optional<List<String>> rowValues(ObjectNode row, Edition edition) {
        if (expandsRow()) {
            return ExpandedValues.ofRow(row.get(column), edition);
        }
        return Optional.of(ClientValues.parameterText(integral(row.get(column)), edition).map(List::of)
            .orElse(List.of()));
    }

    /** The values {@code context} looks up for this term; none when the request value is missing. */
    List<String> requestValues(RequestContext context) {
        if (expandsRequest()) {
            return ExpandedValues.ofRequest(request.get(context), requestJson);
        }
        return Values.parameterText(integral(request.get(context))).map(List::of).orElse(List.of());
    }

    /**
     * {@code value} as PowerSync normalizes a lookup value: a REAL with an integer value is that integer (through
     * the double: {@code 1e21} looks up {@code 1000000000000000000000}, as an integer column would).
     */
    private static JsonNode integral(JsonNode value) {
        if (value == null || !value.isNumber() || value.isIntegralNumber()) {
            return value;
        }
        double number = value.doubleValue();
        if (!Double.isFinite(number) || number != Math.rint(number)) {
            return value;
        }
        return BigIntegerNode.valueOf(new BigDecimal(number).toBigInteger());
    }
}
