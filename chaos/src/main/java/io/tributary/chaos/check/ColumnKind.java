package io.tributary.chaos.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigInteger;
import java.util.Set;

/**
 * How a source column's value appears in a bucket row's data, written from the value table of the sync rules
 * reference (docs/sync-rules.md, edition 1), starting from the column's Postgres text form: the expected side of
 * the checkpoint audit, sharing no code with the product's encoder. {@link #same} compares an expected value with a
 * served one: exactly, except floats (by value: the digits of a float's shortest form are not the question) and
 * JSON held as text (by its parsed value, so equivalent escapes in strings do not count).
 */
enum ColumnKind {
    /** {@code smallint}, {@code integer}, {@code bigint}: a JSON number with every digit. */
    INTEGER,
    /** {@code numeric}: text, exactly as Postgres prints it. */
    NUMERIC,
    /** {@code double precision}: a JSON number, or the text {@code NaN}, {@code Infinity}, {@code -Infinity}. */
    DOUBLE,
    /** {@code real}: as {@link #DOUBLE}, compared at single precision. */
    REAL,
    /** {@code boolean}: 1 or 0. */
    BOOLEAN,
    /** {@code timestamptz}: Postgres' UTC text with {@code Z} for {@code +00}. */
    TIMESTAMPTZ,
    /** {@code jsonb}, {@code json} (in jsonb's form) and arrays (a compact JSON array): JSON text. */
    JSON_TEXT,
    /** Every other type (text, dates, times, intervals, {@code \x} bytea, uuid, enums, {@code char(n)}): text. */
    TEXT;

    private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity");

    /** The value a client gets for a column whose Postgres text form is {@code text} (null: SQL NULL). */
    JsonNode expected(String text) {
        if (text == null) {
            return NullNode.instance;
        }
        return switch (this) {
            case INTEGER -> JsonNodeFactory.instance.numberNode(new BigInteger(text));
            case DOUBLE, REAL -> NON_FINITE.contains(text) ? TextNode.valueOf(text)
                : DoubleNode.valueOf(Double.parseDouble(text));
            case BOOLEAN -> IntNode.valueOf("t".equals(text) ? 1 : 0);
            case TIMESTAMPTZ -> TextNode.valueOf(text.endsWith("+00") ? text.substring(0, text.length() - 3) + "Z"
                : text);
            case NUMERIC, JSON_TEXT, TEXT -> TextNode.valueOf(text);
        };
    }

    /** Whether {@code served} is the value {@code expected} stands for. */
    boolean same(JsonNode expected, JsonNode served) {
        if (served == null) {
            return false;
        }
        if (expected.isNull() || served.isNull()) {
            return expected.isNull() && served.isNull();
        }
        return switch (this) {
            case INTEGER -> served.isIntegralNumber() && served.bigIntegerValue().equals(expected.bigIntegerValue());
            case DOUBLE -> expected.isTextual() ? expected.equals(served)
                : served.isNumber() && served.doubleValue() == expected.doubleValue();
            case REAL -> expected.isTextual() ? expected.equals(served)
                : served.isNumber() && (float) served.doubleValue() == (float) expected.doubleValue();
            case BOOLEAN -> served.isIntegralNumber() && served.intValue() == expected.intValue();
            case JSON_TEXT -> served.isTextual() && Json.parse(served.textValue()).equals(
                Json.parse(expected.textValue()));
            case NUMERIC, TIMESTAMPTZ, TEXT -> served.isTextual() && served.textValue().equals(expected.textValue());
        };
    }
}
