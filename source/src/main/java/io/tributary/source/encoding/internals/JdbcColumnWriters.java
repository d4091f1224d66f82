package io.tributary.source.encoding.internals;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.sql.Identifiers;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.postgresql.util.PGInterval;

/**
 * The JDBC side of the encoding: for each column, the select-list expression a chunk read must use and the
 * writer that turns the value into its canonical form. Scalars are read with typed getters that are exact in
 * both pgjdbc transfer modes (text and binary) and independent of the JVM and session time zones; arrays and
 * {@code timetz} are selected as {@code ::text} and parsed here. Stateless and thread-safe.
 */
public final class JdbcColumnWriters {

    private JdbcColumnWriters() {
    }

    /** The select-list expression for a column: the quoted name, cast to {@code text} where parsed as text. */
    public static String selectExpression(SourceColumn column) {
        String quoted = Identifiers.quote(column.name());
        return column.array() || column.type() == ColumnType.TIMETZ ? quoted + "::text" : quoted;
    }

    /** The writer of a column's values. */
    public static JdbcColumnWriter writer(SourceColumn column) {
        if (column.array()) {
            TextElementWriter element = TextElementWriters.forArrayElement(column.type());
            boolean nullElements = column.type() != ColumnType.ENUM;
            return (rs, i, out) -> {
                String text = rs.getString(i);
                if (text == null) {
                    out.writeNull();
                    return;
                }
                List<String> elements = PgArrayLiteral.elements(text);
                out.writeStartArray();
                for (String e : elements) {
                    if (e == null && !nullElements) {
                        throw new UnencodableValueException("NULL inside an enum array is not supported (Debezium"
                            + " 3.6 turns the whole array into NULL)");
                    } else if (e == null) {
                        out.writeNull();
                    } else {
                        element.write(e, out);
                    }
                }
                out.writeEndArray();
            };
        }
        return scalar(column.type());
    }

    private static JdbcColumnWriter scalar(ColumnType type) {
        return switch (type) {
            case BOOL -> (rs, i, out) -> {
                boolean v = rs.getBoolean(i);
                if (rs.wasNull()) {
                    out.writeNull();
                } else {
                    out.writeBoolean(v);
                }
            };
            case INT2, INT4 -> (rs, i, out) -> {
                int v = rs.getInt(i);
                if (rs.wasNull()) {
                    out.writeNull();
                } else {
                    out.writeNumber(v);
                }
            };
            case INT8, OID -> (rs, i, out) -> {
                long v = rs.getLong(i);
                if (rs.wasNull()) {
                    out.writeNull();
                } else {
                    out.writeNumber(v);
                }
            };
            case FLOAT4 -> (rs, i, out) -> {
                float v = rs.getFloat(i);
                if (rs.wasNull()) {
                    out.writeNull();
                } else {
                    ValueWriters.float4(v, out);
                }
            };
            case FLOAT8 -> (rs, i, out) -> {
                double v = rs.getDouble(i);
                if (rs.wasNull()) {
                    out.writeNull();
                } else {
                    ValueWriters.float8(v, out);
                }
            };
            case NUMERIC -> text(ColumnTypeText::numeric);
            case TEXT, VARCHAR, BPCHAR, CITEXT, ENUM -> text(s -> s);
            case UUID -> text(ColumnTypeText::uuid);
            case TIMETZ -> text(s -> ColumnTypeText.timetz(PgTemporalText.timetzUtc(s)));
            case JSON, JSONB -> (rs, i, out) -> {
                String v = rs.getString(i);
                if (v == null) {
                    out.writeNull();
                } else {
                    JsonDocumentCopy.copy(v, out);
                }
            };
            case BYTEA -> (rs, i, out) -> {
                byte[] v = rs.getBytes(i);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(ColumnTypeText.bytea(v));
                }
            };
            case DATE -> (rs, i, out) -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(ColumnTypeText.date(v.equals(LocalDate.MAX) ? ColumnTypeText.INFINITY
                        : v.equals(LocalDate.MIN) ? ColumnTypeText.MINUS_INFINITY : v.toEpochDay()));
                }
            };
            case TIMESTAMP -> (rs, i, out) -> {
                LocalDateTime v = rs.getObject(i, LocalDateTime.class);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(ColumnTypeText.timestamp(v.equals(LocalDateTime.MAX) ? ColumnTypeText.INFINITY
                        : v.equals(LocalDateTime.MIN) ? ColumnTypeText.MINUS_INFINITY
                        : micros(v.toEpochSecond(ZoneOffset.UTC), v.getNano())));
                }
            };
            case TIMESTAMPTZ -> (rs, i, out) -> {
                OffsetDateTime v = rs.getObject(i, OffsetDateTime.class);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(ColumnTypeText.timestamptz(v.equals(OffsetDateTime.MAX) ? ColumnTypeText.INFINITY
                        : v.equals(OffsetDateTime.MIN) ? ColumnTypeText.MINUS_INFINITY
                        : micros(v.toEpochSecond(), v.getNano())));
                }
            };
            case TIME -> (rs, i, out) -> {
                LocalTime v = rs.getObject(i, LocalTime.class);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(ColumnTypeText.time(v.equals(LocalTime.MAX) ? ColumnTypeText.MICROS_PER_DAY
                        : v.toNanoOfDay() / 1000));
                }
            };
            case INTERVAL -> (rs, i, out) -> {
                Object v = rs.getObject(i);
                if (v == null) {
                    out.writeNull();
                } else {
                    out.writeString(interval((PGInterval) v));
                }
            };
        };
    }

    private interface TextFormat {
        String format(String text);
    }

    private static JdbcColumnWriter text(TextFormat format) {
        return (rs, i, out) -> {
            String v = rs.getString(i);
            if (v == null) {
                out.writeNull();
            } else {
                out.writeString(format.format(v));
            }
        };
    }

    private static long micros(long epochSecond, int nanos) {
        if (nanos % 1000 != 0) {
            throw new UnencodableValueException("sub-microsecond timestamp " + epochSecond + "s " + nanos + "ns");
        }
        return Math.addExact(Math.multiplyExact(epochSecond, ColumnTypeText.MICROS_PER_SECOND), nanos / 1000);
    }

    /** The canonical interval of pgjdbc's parsed interval. */
    static String interval(PGInterval v) {
        int months = Math.addExact(Math.multiplyExact(v.getYears(), 12), v.getMonths());
        long micros = v.getHours() * ColumnTypeText.MICROS_PER_HOUR + v.getMinutes() * ColumnTypeText.MICROS_PER_MINUTE
            + v.getWholeSeconds() * ColumnTypeText.MICROS_PER_SECOND + v.getMicroSeconds();
        return ColumnTypeText.interval(months, v.getDays(), micros);
    }
}
