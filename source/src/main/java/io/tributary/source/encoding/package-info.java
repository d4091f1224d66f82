/**
 * The canonical row encoding (docs/design.md invariant 5, "same bytes on both paths"): one JSON text per source row,
 * produced identically from a JDBC chunk read ({@link io.tributary.source.encoding.JdbcRowEncoder}) and from a
 * Debezium change event ({@link io.tributary.source.encoding.ConnectRowEncoder}, with
 * {@link io.tributary.source.encoding.DebeziumDecodingSettings} applied to the connector).
 *
 * <h2>The canonical form</h2>
 * A compact JSON object, keys = column names in catalog ({@code attnum}) order, no whitespace, strings escaped
 * as Jackson's default generator escapes them. Values:
 * <ul>
 *   <li>NULL: {@code null}; {@code bool}: {@code true}/{@code false}; {@code int2}, {@code int4}, {@code int8},
 *       {@code oid}: JSON integers;</li>
 *   <li>{@code numeric}: a JSON string with the exact decimal as Postgres prints it ({@code "1.50"},
 *       {@code "-0.001"}, never an exponent), or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"};</li>
 *   <li>{@code float4}/{@code float8}: a JSON number as JavaScript's {@code Number.prototype.toString} prints
 *       it (shortest round-trip digits; a {@code float4} uses the float's own shortest digits), with {@code .0}
 *       appended when that text is an integer ({@code 3.0}, {@code 0.0} for {@code -0}; {@code 2.5},
 *       {@code 1e+21} as they are), so that a float never reads as an integer; {@code NaN}, {@code Infinity},
 *       {@code -Infinity} as JSON strings;</li>
 *   <li>{@code text}, {@code varchar}, {@code char(n)} (blank-padded as Postgres returns it),
 *       {@code citext}, enums: JSON strings; {@code uuid}: lower-case string;</li>
 *   <li>{@code date}: {@code "YYYY-MM-DD"}; {@code timestamp}: {@code "YYYY-MM-DDTHH:MM:SS.ffffff"};
 *       {@code timestamptz}: UTC {@code "YYYY-MM-DDTHH:MM:SS.ffffffZ"}; {@code time}: {@code "HH:MM:SS.ffffff"}
 *       (up to {@code 24:00:00.000000}); {@code timetz}: the UTC time of day {@code "HH:MM:SS.ffffffZ"} (the
 *       stored offset is lost: Debezium 3.6 normalizes {@code timetz} to UTC); always six fraction digits;
 *       {@code 'infinity'}/{@code '-infinity'}: {@code "infinity"}/{@code "-infinity"}; years outside
 *       0001-9999 (including BC) are rejected with {@link io.tributary.source.encoding.EncodingException};</li>
 *   <li>{@code interval}: ISO 8601 {@code "P<y>Y<m>M<d>DT<h>H<min>M<s>S"} with every part present, as
 *       Debezium's {@code interval.handling.mode=string} prints it ({@code "P1Y2M-3DT4H5M6.78S"});</li>
 *   <li>{@code bytea}: {@code "\\x"} followed by lower-case hex;</li>
 *   <li>{@code json}/{@code jsonb}: the value itself (not a string), compact, keys in the text's order, numbers
 *       exactly as their text;</li>
 *   <li>one-dimensional arrays of the types marked in {@link io.tributary.source.catalog.ColumnType}: JSON
 *       arrays of canonical elements, {@code null} for NULL elements. Multi-dimensional values, and special
 *       values Debezium 3.6 decodes wrongly inside arrays ({@code NaN}/{@code Infinity} in {@code numeric[]},
 *       {@code infinity} in date and timestamp arrays), are rejected on the JDBC path.</li>
 * </ul>
 * The key of a row is the JSON array of its key columns' canonical values in key order ({@code [42]},
 * {@code ["a",7]}).
 */
package io.tributary.source.encoding;
