package io.tributary.source.encoding.internals;

import java.time.LocalDate;

/**
 * What Debezium 3.6's Postgres connector emits, with the decoding settings of
 * {@link io.tributary.source.encoding.DebeziumDecodingSettings}: semantic schema names and the sentinel values
 * it uses for Postgres's {@code infinity}. Debezium itself is not a dependency of this module; the values are
 * checked against the real connector by the parity test.
 */
public final class DebeziumValues {

    public static final String DATE = "io.debezium.time.Date";
    public static final String TIME = "io.debezium.time.Time";
    public static final String MICRO_TIME = "io.debezium.time.MicroTime";
    public static final String NANO_TIME = "io.debezium.time.NanoTime";
    public static final String TIMESTAMP = "io.debezium.time.Timestamp";
    public static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";
    public static final String NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";
    public static final String ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";
    public static final String ZONED_TIME = "io.debezium.time.ZonedTime";
    public static final String INTERVAL = "io.debezium.time.Interval";
    public static final String UUID = "io.debezium.data.Uuid";
    public static final String JSON = "io.debezium.data.Json";
    public static final String ENUM = "io.debezium.data.Enum";

    /** {@code decimal.handling.mode=string} spells numeric specials by Debezium's enum names. */
    public static final String NUMERIC_NAN = "NAN";
    public static final String NUMERIC_POSITIVE_INFINITY = "POSITIVE_INFINITY";
    public static final String NUMERIC_NEGATIVE_INFINITY = "NEGATIVE_INFINITY";

    /** pgjdbc's {@code PGStatement.DATE_POSITIVE_INFINITY}, which Debezium reads as microseconds. */
    private static final long PG_POSITIVE_INFINITY = 9223372036825200000L;
    /** pgjdbc's {@code PGStatement.DATE_NEGATIVE_INFINITY}. */
    private static final long PG_NEGATIVE_INFINITY = -9223372036832400000L;

    /** {@code timestamp 'infinity'} as Debezium's epoch microseconds. */
    public static final long TIMESTAMP_INFINITY_MICROS = PG_POSITIVE_INFINITY;
    /** {@code timestamp '-infinity'} as Debezium's epoch microseconds. */
    public static final long TIMESTAMP_MINUS_INFINITY_MICROS = PG_NEGATIVE_INFINITY;

    /** {@code date 'infinity'}: Debezium's {@code POSITIVE_INFINITY_LOCAL_DATE} ({@code -5877611-06-21}). */
    public static final long DATE_INFINITY_DAYS = LocalDate.of(-5877611, 6, 21).toEpochDay();
    /** {@code date '-infinity'}: Debezium's {@code NEGATIVE_INFINITY_LOCAL_DATE} ({@code -5877611-06-22}). */
    public static final long DATE_MINUS_INFINITY_DAYS = LocalDate.of(-5877611, 6, 22).toEpochDay();

    /** {@code timestamptz 'infinity'} and {@code '-infinity'} arrive as these strings. */
    public static final String ZONED_INFINITY = "infinity";
    public static final String ZONED_MINUS_INFINITY = "-infinity";

    private DebeziumValues() {
    }
}
