package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.syncrules.Edition;
import io.tributary.topics.json.CanonicalJson;
import java.util.Optional;

/**
 * The values of output rows as PowerSync writes them into a bucket op's data, i.e. what the client's SQLite row
 * gets, from a canonical column value:
 * <ul>
 *   <li>booleans as the integers {@code 1} and {@code 0};</li>
 *   <li>integers as they are; other numbers (floats) as REAL text, see {@link ClientNumbers};</li>
 *   <li>strings as they are, except the canonical temporal and interval forms, see {@link ClientTemporals} and
 *       {@link ClientIntervals};</li>
 *   <li>arrays (Postgres arrays) as a compact JSON text of their elements, each element written by these rules,
 *       except that arrays and objects among them (jsonb elements) are written as {@link JsonbText};</li>
 *   <li>objects (json, jsonb) as their {@link JsonbText}: the row does not tell json from jsonb, and PowerSync
 *       syncs a jsonb value as Postgres prints it;</li>
 *   <li>null and a missing value as {@code null}.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class ClientValues {

    private ClientValues() {
    }

    /** Appends the client value of {@code value} as JSON. */
    static void write(JsonNode value, Edition edition, StringBuilder out) {
        if (value == null) {
            out.append("null");
            return;
        }
        switch (value.getNodeType()) {
            case ARRAY -> {
                StringBuilder elements = new StringBuilder().append('[');
                for (int i = 0; i < value.size(); i++) {
                    if (i > 0) {
                        elements.append(',');
                    }
                    JsonNode element = value.get(i);
                    if (element.isContainerNode()) {
                        JsonbText.write(element, elements);
                    } else {
                        write(element, edition, elements);
                    }
                }
                CanonicalJson.quote(elements.append(']').toString(), out);
            }
            case OBJECT -> CanonicalJson.quote(JsonbText.of(value), out);
            case BOOLEAN -> out.append(value.booleanValue() ? '1' : '0');
            case NUMBER -> number(value, out);
            case STRING -> CanonicalJson.quote(clientText(value.textValue(), edition), out);
            default -> CanonicalJson.write(value, out);
        }
    }

    /**
     * The bucket parameter text of a row's value, as PowerSync names buckets by the client value: strings (and the
     * JSON text of arrays and objects) quoted, temporal values in {@code edition}'s text, other scalars as
     * {@link Values#parameterText}; empty for null and a missing value.
     */
    static Optional<String> parameterText(JsonNode value, Edition edition) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return Optional.empty();
        }
        if (value.isContainerNode() || value.isTextual()) {
            StringBuilder text = new StringBuilder();
            write(value, edition, text);
            return Optional.of(text.toString());
        }
        return Values.parameterText(value);
    }

    private static String clientText(String text, Edition edition) {
        return ClientTemporals.clientText(text, edition).or(() -> ClientIntervals.clientText(text)).orElse(text);
    }

    private static void number(JsonNode value, StringBuilder out) {
        if (value.isIntegralNumber()) {
            out.append(value.numberValue().toString());
        } else if (value.isBigDecimal()) {
            ClientNumbers.appendReal(value.decimalValue(), out);
        } else if (value.isFloat()) {
            ClientNumbers.appendReal(new java.math.BigDecimal(Float.toString(value.floatValue())), out);
        } else if (Double.isFinite(value.doubleValue())) {
            ClientNumbers.appendReal(value.doubleValue(), out);
        } else {
            out.append("null");
        }
    }
}
