package io.tributary.source.encoding.internals;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;

/**
 * The Kafka Connect side of the encoding: for each column, given the Connect schema Debezium gave it, the writer
 * of its canonical value. Building a writer checks that the schema is what the decoding settings produce, so a
 * connector configured otherwise fails loudly instead of encoding differently. Stateless and thread-safe.
 */
public final class ConnectValueWriters {

    private ConnectValueWriters() {
    }

    /**
     * The writer of a column's non-null values.
     *
     * @throws IllegalArgumentException if {@code schema} is not what Debezium emits for the column's type under
     *                                  {@link io.tributary.source.encoding.DebeziumDecodingSettings}
     */
    public static ConnectValueWriter writer(SourceColumn column, Schema schema) {
        if (column.array()) {
            expect(column, schema, Set.of(Schema.Type.ARRAY), null);
            ConnectValueWriter element = scalar(column, schema.valueSchema(), true);
            return (value, out) -> {
                List<?> elements = (List<?>) value;
                out.writeStartArray();
                for (Object e : elements) {
                    if (e == null) {
                        out.writeNull();
                    } else {
                        element.write(e, out);
                    }
                }
                out.writeEndArray();
            };
        }
        return scalar(column, schema, false);
    }

    private static ConnectValueWriter scalar(SourceColumn column, Schema schema, boolean inArray) {
        ColumnType type = column.type();
        switch (type) {
            case BOOL:
                expect(column, schema, Set.of(Schema.Type.BOOLEAN), null);
                return (v, out) -> out.writeBoolean((Boolean) v);
            case INT2:
                expect(column, schema, Set.of(Schema.Type.INT16), null);
                return (v, out) -> out.writeNumber(((Number) v).intValue());
            case INT4:
                expect(column, schema, Set.of(Schema.Type.INT32), null);
                return (v, out) -> out.writeNumber(((Number) v).intValue());
            case INT8:
            case OID:
                expect(column, schema, Set.of(Schema.Type.INT64), null);
                return (v, out) -> out.writeNumber(((Number) v).longValue());
            case FLOAT4:
                expect(column, schema, Set.of(Schema.Type.FLOAT32), null);
                return (v, out) -> ValueWriters.float4((Float) v, out);
            case FLOAT8:
                expect(column, schema, Set.of(Schema.Type.FLOAT64), null);
                return (v, out) -> ValueWriters.float8((Double) v, out);
            case NUMERIC:
                expect(column, schema, Set.of(Schema.Type.STRING), null);
                return (v, out) -> out.writeString(numeric((String) v, inArray));
            case TEXT:
            case VARCHAR:
            case BPCHAR:
            case CITEXT:
                expect(column, schema, Set.of(Schema.Type.STRING), null);
                return (v, out) -> out.writeString((String) v);
            case ENUM:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.ENUM);
                return (v, out) -> out.writeString((String) v);
            case UUID:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.UUID);
                return (v, out) -> out.writeString(ColumnTypeText.uuid((String) v));
            case JSON:
            case JSONB:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.JSON);
                return (v, out) -> JsonDocumentCopy.copy((String) v, out);
            case BYTEA:
                expect(column, schema, Set.of(Schema.Type.BYTES), null);
                return (v, out) -> out.writeString(v instanceof ByteBuffer b ? ColumnTypeText.bytea(b)
                    : ColumnTypeText.bytea((byte[]) v));
            case DATE:
                expect(column, schema, Set.of(Schema.Type.INT32), DebeziumValues.DATE);
                return (v, out) -> out.writeString(ColumnTypeText.date(finite(date((Integer) v), inArray)));
            case TIMESTAMP:
                return timestamp(column, schema, inArray);
            case TIMESTAMPTZ:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.ZONED_TIMESTAMP);
                return (v, out) -> out.writeString(
                    ColumnTypeText.timestamptz(finite(DebeziumText.zonedTimestamp((String) v), inArray)));
            case TIME:
                return time(column, schema);
            case TIMETZ:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.ZONED_TIME);
                return (v, out) -> out.writeString(ColumnTypeText.timetz(DebeziumText.zonedTimeUtc((String) v)));
            case INTERVAL:
                expect(column, schema, Set.of(Schema.Type.STRING), DebeziumValues.INTERVAL);
                return (v, out) -> out.writeString(DebeziumText.interval((String) v));
            default:
                throw new IllegalArgumentException("Unsupported column type " + type);
        }
    }

    private static ConnectValueWriter timestamp(SourceColumn column, Schema schema, boolean inArray) {
        expect(column, schema, Set.of(Schema.Type.INT64), null);
        String name = Objects.requireNonNullElse(schema.name(), "");
        long unitsPerMicro;
        long microsPerUnit;
        switch (name) {
            case DebeziumValues.MICRO_TIMESTAMP -> {
                unitsPerMicro = 1;
                microsPerUnit = 1;
            }
            case DebeziumValues.TIMESTAMP -> {
                unitsPerMicro = 1;
                microsPerUnit = 1000;
            }
            case DebeziumValues.NANO_TIMESTAMP -> {
                unitsPerMicro = 1000;
                microsPerUnit = 1;
            }
            default -> throw mismatch(column, schema, "a MicroTimestamp, Timestamp or NanoTimestamp INT64");
        }
        long plusInfinity = DebeziumValues.TIMESTAMP_INFINITY_MICROS * unitsPerMicro / microsPerUnit;
        long minusInfinity = DebeziumValues.TIMESTAMP_MINUS_INFINITY_MICROS * unitsPerMicro / microsPerUnit;
        return (v, out) -> {
            long units = (Long) v;
            long micros;
            if (units == plusInfinity) {
                micros = ColumnTypeText.INFINITY;
            } else if (units == minusInfinity) {
                micros = ColumnTypeText.MINUS_INFINITY;
            } else if (unitsPerMicro == 1) {
                micros = Math.multiplyExact(units, microsPerUnit);
            } else {
                if (units % unitsPerMicro != 0) {
                    throw new UnencodableValueException("sub-microsecond timestamp " + units + " ns");
                }
                micros = units / unitsPerMicro;
            }
            micros = finite(micros, inArray);
            out.writeString(ColumnTypeText.timestamp(inArray ? DebeziumArrayTemporals.timestampElement(micros)
                : micros));
        };
    }

    private static ConnectValueWriter time(SourceColumn column, Schema schema) {
        String name = Objects.requireNonNullElse(schema.name(), "");
        switch (name) {
            case DebeziumValues.MICRO_TIME -> {
                expect(column, schema, Set.of(Schema.Type.INT64), name);
                return (v, out) -> out.writeString(ColumnTypeText.time((Long) v));
            }
            case DebeziumValues.TIME -> {
                expect(column, schema, Set.of(Schema.Type.INT32), name);
                return (v, out) -> out.writeString(ColumnTypeText.time((Integer) v * 1000L));
            }
            case DebeziumValues.NANO_TIME -> {
                expect(column, schema, Set.of(Schema.Type.INT64), name);
                return (v, out) -> out.writeString(ColumnTypeText.time((Long) v / 1000));
            }
            default -> throw mismatch(column, schema, "a MicroTime, Time or NanoTime");
        }
    }

    private static long date(int days) {
        if (days == DebeziumValues.DATE_INFINITY_DAYS) {
            return ColumnTypeText.INFINITY;
        }
        if (days == DebeziumValues.DATE_MINUS_INFINITY_DAYS) {
            return ColumnTypeText.MINUS_INFINITY;
        }
        return days;
    }

    private static long finite(long temporal, boolean inArray) {
        return inArray ? ValueWriters.finiteInArray(temporal) : temporal;
    }

    private static String numeric(String v, boolean inArray) {
        String canonical = switch (v) {
            case DebeziumValues.NUMERIC_NAN -> "NaN";
            case DebeziumValues.NUMERIC_POSITIVE_INFINITY -> "Infinity";
            case DebeziumValues.NUMERIC_NEGATIVE_INFINITY -> "-Infinity";
            default -> ColumnTypeText.numeric(v);
        };
        if (inArray && (canonical.endsWith("NaN") || canonical.endsWith("Infinity"))) {
            throw new UnencodableValueException(canonical + " inside a numeric array is not supported");
        }
        return canonical;
    }

    private static void expect(SourceColumn column, Schema schema, Set<Schema.Type> types, String name) {
        if (schema == null || !types.contains(schema.type())
            || name != null && !name.equals(schema.name())) {
            throw mismatch(column, schema, types + (name == null ? "" : " named " + name));
        }
    }

    private static IllegalArgumentException mismatch(SourceColumn column, Schema schema, String expected) {
        return new IllegalArgumentException("Column \"" + column.name() + "\" (" + column.formattedType()
            + ") has Connect schema " + (schema == null ? "none" : schema.type() + " named " + schema.name())
            + " but the canonical encoding expects " + expected + "; are DebeziumDecodingSettings.properties()"
            + " merged into the connector configuration?");
    }
}
