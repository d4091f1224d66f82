package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.topics.json.CanonicalJson;
import java.util.Optional;

/**
 * How the subset compares JSON values. Numbers compare numerically whatever their representation, strings by
 * code point (like a {@code C} collation), booleans with {@code false < true}. Anything involving null, a missing
 * value, an array or an object, or two values of different kinds, is {@link #INCOMPARABLE}: the SQL
 * {@code UNKNOWN}, which never selects a row.
 */
public final class Values {

    /** The result of {@link #compare} when the comparison is unknown. */
    public static final int INCOMPARABLE = Integer.MIN_VALUE;

    private Values() {
    }

    /** Negative, zero or positive as {@code a} is less than, equal to or greater than {@code b}; or INCOMPARABLE. */
    public static int compare(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return INCOMPARABLE;
        }
        if (a.isTextual()) {
            return b.isTextual() ? Integer.signum(compareText(a.textValue(), b.textValue())) : INCOMPARABLE;
        }
        if (a.isNumber()) {
            return b.isNumber() ? compareNumbers(a, b) : INCOMPARABLE;
        }
        if (a.isBoolean()) {
            return b.isBoolean() ? Boolean.compare(a.booleanValue(), b.booleanValue()) : INCOMPARABLE;
        }
        return INCOMPARABLE;
    }

    /** True for null, a missing value (Java null or {@code MissingNode}) and JSON null. */
    public static boolean isNull(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode();
    }

    /**
     * The JSON text of a value usable as a bucket parameter, as PowerSync writes it in bucket names: a string
     * quoted, an integer as it is, another number as JavaScript prints it ({@code 2.5}, and {@code 3} for
     * {@code 3.0}: a REAL and an INTEGER of the same value name the same bucket), a boolean as {@code 1} or
     * {@code 0}. Null, missing, arrays and objects are not bucket parameter values.
     */
    public static Optional<String> parameterText(JsonNode value) {
        StringBuilder out = new StringBuilder();
        return appendParameter(value, out) ? Optional.of(out.toString()) : Optional.empty();
    }

    /** Appends the parameter text of {@code value} and returns true, or returns false if it is not a parameter. */
    private static boolean appendParameter(JsonNode value, StringBuilder out) {
        if (value == null) {
            return false;
        }
        if (value.isTextual()) {
            CanonicalJson.quote(value.textValue(), out);
            return true;
        }
        if (value.isBoolean()) {
            out.append(value.booleanValue() ? '1' : '0');
            return true;
        }
        if (value.isIntegralNumber()) {
            out.append(value.numberValue().toString());
            return true;
        }
        if (value.isNumber() && isFinite(value)) {
            ClientNumbers.appendJs(value.isBigDecimal() ? value.decimalValue()
                : new java.math.BigDecimal(value.isFloat() ? Float.toString(value.floatValue())
                    : Double.toString(value.doubleValue())), out);
            return true;
        }
        return false;
    }

    private static int compareNumbers(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber() && a.canConvertToLong() && b.canConvertToLong()) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (!isFinite(a) || !isFinite(b)) {
            return INCOMPARABLE;
        }
        return a.decimalValue().compareTo(b.decimalValue());
    }

    private static boolean isFinite(JsonNode number) {
        return !(number.isDouble() || number.isFloat()) || Double.isFinite(number.doubleValue());
    }

    private static int compareText(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                boolean sa = Character.isSurrogate(ca);
                boolean sb = Character.isSurrogate(cb);
                if (sa != sb) {
                    return sa ? 1 : -1;
                }
                return ca - cb;
            }
        }
        return a.length() - b.length();
    }
}
