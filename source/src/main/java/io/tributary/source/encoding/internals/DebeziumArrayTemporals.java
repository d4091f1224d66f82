package io.tributary.source.encoding.internals;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Undoes what Debezium 3.6 does to {@code timestamp[]} elements. It decodes array elements through pgjdbc's
 * {@code PgArray}, i.e. into a {@link Timestamp} in the JVM's default time zone, and then converts that with
 * {@code Timestamp.toInstant()} and {@code java.time}: the hybrid Julian/Gregorian calendar of {@link Timestamp}
 * and the ISO calendar disagree before 1582-10-15, so older elements come out shifted by days. The two steps are
 * reversed exactly here, in the same JVM default time zone (ingest's JVM should run in UTC: in other zones
 * Debezium's decoding of local timestamps is also ambiguous at daylight-saving transitions). {@code date[]} and
 * {@code timestamptz[]} elements keep their fields and scalar columns are decoded from text, so they need none of
 * this. Stateless and thread-safe.
 */
public final class DebeziumArrayTemporals {

    private DebeziumArrayTemporals() {
    }

    /** The {@code timestamp} element Debezium read as {@code micros} (a local date-time as if UTC). */
    public static long timestampElement(long micros) {
        LocalDateTime shown = local(micros);
        Timestamp original = Timestamp.from(shown.atZone(ZoneId.systemDefault()).toInstant());
        LocalDateTime fields = original.toLocalDateTime();
        return fields.toEpochSecond(ZoneOffset.UTC) * ColumnTypeText.MICROS_PER_SECOND + fields.getNano() / 1000;
    }

    private static LocalDateTime local(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, ColumnTypeText.MICROS_PER_SECOND),
            (int) Math.floorMod(micros, ColumnTypeText.MICROS_PER_SECOND) * 1000, ZoneOffset.UTC);
    }
}
