package io.tributary.source.encoding;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The Debezium Postgres connector properties the {@link ConnectRowEncoder} relies on. Ingest merges
 * {@link #properties()} into its engine configuration (and must not override these keys); the encoder checks the
 * Connect schemas it receives and refuses a table whose schema shows other settings.
 *
 * <ul>
 *   <li>{@code decimal.handling.mode=string}: {@code numeric} as text with the value's own scale, and
 *       {@code NaN}/{@code Infinity} representable ({@code precise} strips trailing zeros of unconstrained
 *       numerics and cannot carry NaN; {@code double} is lossy).</li>
 *   <li>{@code time.precision.mode=adaptive_time_microseconds}: {@code date} as days, {@code time} as
 *       microseconds, {@code timestamp} as micro- (or, for {@code timestamp(0..3)}, milli-) seconds since the
 *       epoch; all exact at Postgres's microsecond resolution ({@code connect} mode truncates to milliseconds).</li>
 *   <li>{@code binary.handling.mode=bytes}: {@code bytea} as raw bytes, hex-encoded by the encoder itself.</li>
 *   <li>{@code interval.handling.mode=string}: {@code interval} as the ISO 8601 parts Postgres stores
 *       ({@code numeric} mode folds months into an average-length number of microseconds).</li>
 *   <li>{@code hstore.handling.mode=json}: fixed for determinism; {@code hstore} itself is not supported.</li>
 *   <li>{@code include.unknown.datatypes=false}: types without a converter are left out, never passed as opaque
 *       bytes; the catalog refuses tables with such columns anyway.</li>
 *   <li>{@code unavailable.value.placeholder}: a marker no real value uses, so unchanged TOASTed values are
 *       recognized and reported as unavailable, never encoded.</li>
 * </ul>
 */
public final class DebeziumDecodingSettings {

    /** The marker Debezium puts in place of unchanged TOASTed values. */
    public static final String UNAVAILABLE_VALUE_PLACEHOLDER = "__tributary_unavailable_value_6b1f3e0d";

    /** {@link #UNAVAILABLE_VALUE_PLACEHOLDER} as the bytes Debezium uses for {@code bytea} (ASCII). */
    static final byte[] UNAVAILABLE_VALUE_PLACEHOLDER_BYTES =
        UNAVAILABLE_VALUE_PLACEHOLDER.getBytes(StandardCharsets.US_ASCII);

    private static final Map<String, String> PROPERTIES = Map.of(
        "decimal.handling.mode", "string",
        "time.precision.mode", "adaptive_time_microseconds",
        "binary.handling.mode", "bytes",
        "interval.handling.mode", "string",
        "hstore.handling.mode", "json",
        "include.unknown.datatypes", "false",
        "unavailable.value.placeholder", UNAVAILABLE_VALUE_PLACEHOLDER);

    private DebeziumDecodingSettings() {
    }

    /** The connector properties, immutable. */
    public static Map<String, String> properties() {
        return PROPERTIES;
    }
}
