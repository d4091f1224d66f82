package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
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
     * The canonical JSON text of a value usable as a bucket parameter: a string, a number or a boolean.
     * Null, missing, arrays and objects are not bucket parameter values.
     */
    public static Optional<String> parameterText(JsonNode value) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.isTextual() || value.isNumber() || value.isBoolean()) {
            StringBuilder out = new StringBuilder();
            CanonicalJson.write(value, out);
            return Optional.of(out.toString());
        }
        return Optional.empty();
    }

    /** Appends the parameter text of {@code value} and returns true, or returns false if it is not a parameter. */
    static boolean appendParameter(JsonNode value, StringBuilder out) {
        if (value == null) {
            return false;
        }
        if (value.isTextual()) {
            CanonicalJson.quote(value.textValue(), out);
            return true;
        }
        if (value.isNumber() || value.isBoolean()) {
            CanonicalJson.write(value, out);
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
