package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/** The JSON output of the canonical values both encoders share. Stateless and thread-safe. */
public final class ValueWriters {

    private ValueWriters() {
    }

    /**
     * A double as a JavaScript-formatted number that stays a float: {@code .0} is appended when the JavaScript text
     * is an integer ({@code 3.0}, {@code 100000000000000000000.0}; {@code 2.5} and {@code 1e+21} as they are), so
     * the row tells a float from an integer. Non-finite values as {@code "NaN"}, {@code "Infinity"},
     * {@code "-Infinity"}.
     */
    public static void float8(double value, JsonGenerator out) throws IOException {
        if (Double.isFinite(value)) {
            out.writeNumber(asFloat(JsNumbers.format(value)));
        } else {
            out.writeString(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    /** A float from its own shortest digits, written as {@link #float8} writes a double. */
    public static void float4(float value, JsonGenerator out) throws IOException {
        if (Float.isFinite(value)) {
            out.writeNumber(asFloat(JsNumbers.format(value)));
        } else {
            out.writeString(Float.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    private static String asFloat(String js) {
        for (int i = 0; i < js.length(); i++) {
            char c = js.charAt(i);
            if (c == '.' || c == 'e') {
                return js;
            }
        }
        return js + ".0";
    }

    /** Rejects {@code 'infinity'} inside arrays, which Debezium 3.6 decodes wrongly. */
    public static long finiteInArray(long temporal) {
        if (temporal == ColumnTypeText.INFINITY || temporal == ColumnTypeText.MINUS_INFINITY) {
            throw new UnencodableValueException("infinity inside a date or timestamp array is not supported"
                + " (Debezium 3.6 decodes it wrongly)");
        }
        return temporal;
    }
}
