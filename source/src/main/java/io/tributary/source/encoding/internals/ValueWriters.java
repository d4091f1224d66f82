package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/** The JSON output of the canonical values both encoders share. Stateless and thread-safe. */
public final class ValueWriters {

    private ValueWriters() {
    }

    /** A double as a JavaScript-formatted number, or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
    public static void float8(double value, JsonGenerator out) throws IOException {
        if (Double.isFinite(value)) {
            out.writeNumber(JsNumbers.format(value));
        } else {
            out.writeString(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    /** A float from its own shortest digits, JavaScript-formatted; non-finite values as strings. */
    public static void float4(float value, JsonGenerator out) throws IOException {
        if (Float.isFinite(value)) {
            out.writeNumber(JsNumbers.format(value));
        } else {
            out.writeString(Float.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    /** Rejects {@code 'infinity'} inside arrays, which Debezium 3.6 decodes wrongly. */
    public static long finiteInArray(long temporal) {
        if (temporal == CanonicalText.INFINITY || temporal == CanonicalText.MINUS_INFINITY) {
            throw new UnencodableValueException("infinity inside a date or timestamp array is not supported"
                + " (Debezium 3.6 decodes it wrongly)");
        }
        return temporal;
    }
}
