package io.tributary.source.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The column types the canonical row encoding supports (the element type, for array columns). Anything else is
 * rejected when a table is described ({@link UnsupportedColumnTypeException}), because either the JDBC path or
 * Debezium's decoding of it is not exact (Debezium 3.6 emits NULL for {@code name}, for example, and drops
 * arrays of {@code time}, {@code interval} and {@code name}).
 */
public enum ColumnType {
    BOOL(16, "boolean", true),
    INT2(21, "smallint", true),
    INT4(23, "integer", true),
    INT8(20, "bigint", true),
    OID(26, "oid", false),
    NUMERIC(1700, "numeric", true),
    FLOAT4(700, "real", true),
    FLOAT8(701, "double precision", true),
    TEXT(25, "text", true),
    VARCHAR(1043, "character varying", true),
    BPCHAR(1042, "character", true),
    /** The {@code citext} extension type (its oid differs per database, so it is recognized by name). */
    CITEXT(0, "citext", false),
    /** Any user-defined enum type. */
    ENUM(0, "enum types", true),
    UUID(2950, "uuid", true),
    DATE(1082, "date", true),
    TIME(1083, "time", false),
    TIMETZ(1266, "time with time zone", false),
    TIMESTAMP(1114, "timestamp", true),
    TIMESTAMPTZ(1184, "timestamp with time zone", true),
    INTERVAL(1186, "interval", false),
    BYTEA(17, "bytea", true),
    JSON(114, "json", true),
    JSONB(3802, "jsonb", true);

    private final int oid;
    private final String sqlName;
    private final boolean arrayElement;

    ColumnType(int oid, String sqlName, boolean arrayElement) {
        this.oid = oid;
        this.sqlName = sqlName;
        this.arrayElement = arrayElement;
    }

    /** The built-in type oid, or 0 for types without a fixed oid ({@link #CITEXT}, {@link #ENUM}). */
    public int oid() {
        return oid;
    }

    /** The SQL name used in messages. */
    public String sqlName() {
        return sqlName;
    }

    /** Whether one-dimensional arrays of this type are supported too. */
    public boolean supportedAsArrayElement() {
        return arrayElement;
    }

    /** The built-in type with this oid, if supported. */
    public static Optional<ColumnType> ofBuiltInOid(int oid) {
        for (ColumnType type : values()) {
            if (type.oid != 0 && type.oid == oid) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** A human-readable list of what is supported, for error messages. */
    public static String supportedList() {
        List<String> scalars = Arrays.stream(values()).map(ColumnType::sqlName).collect(Collectors.toList());
        List<String> arrays = Arrays.stream(values()).filter(ColumnType::supportedAsArrayElement)
            .map(t -> t.sqlName() + "[]").collect(Collectors.toList());
        return String.join(", ", scalars) + "; one-dimensional arrays: " + String.join(", ", arrays);
    }
}
