package io.tributary.source.encoding.internals;

/**
 * Parses the strings Debezium 3.6 emits for {@code timestamptz} ({@code ZonedTimestamp}), {@code timetz}
 * ({@code ZonedTime}) and {@code interval} ({@code Interval}, string mode) back into exact parts. Stateless and
 * thread-safe.
 */
public final class DebeziumText {

    private DebeziumText() {
    }

    /**
     * {@code 2020-01-02T01:04:05.123456Z} (UTC, 0 to 9 fraction digits; a year may carry a sign and more digits),
     * {@code infinity} or {@code -infinity}: microseconds since the epoch.
     */
    public static long zonedTimestamp(String text) {
        if (DebeziumValues.ZONED_INFINITY.equals(text)) {
            return ColumnTypeText.INFINITY;
        }
        if (DebeziumValues.ZONED_MINUS_INFINITY.equals(text)) {
            return ColumnTypeText.MINUS_INFINITY;
        }
        int t = text.indexOf('T');
        if (t < 0 || !text.endsWith("Z")) {
            throw malformed(text);
        }
        if (t != 10 || text.charAt(0) == '+' || text.charAt(0) == '-') {
            throw new UnencodableValueException("timestamptz outside the supported years 0001-9999: " + text);
        }
        long day = PgTemporalText.date(text.substring(0, t));
        long micros = timeOfDay(text, t + 1, text.length() - 1);
        return day * ColumnTypeText.MICROS_PER_DAY + micros;
    }

    /** {@code 21:34:05.5Z}: microseconds since midnight UTC. */
    public static long zonedTimeUtc(String text) {
        if (!text.endsWith("Z")) {
            throw malformed(text);
        }
        long micros = timeOfDay(text, 0, text.length() - 1);
        if (micros >= ColumnTypeText.MICROS_PER_DAY) {
            throw malformed(text);
        }
        return micros;
    }

    private static long timeOfDay(String text, int from, int to) {
        if (to - from < 8 || text.charAt(from + 2) != ':' || text.charAt(from + 5) != ':') {
            throw malformed(text);
        }
        long hours = digits(text, from, from + 2);
        long minutes = digits(text, from + 3, from + 5);
        long seconds = digits(text, from + 6, from + 8);
        long fraction = 0;
        if (to > from + 8) {
            if (text.charAt(from + 8) != '.' || to - from - 9 > 9 || to - from - 9 < 1) {
                throw malformed(text);
            }
            long nanos = digits(text, from + 9, to);
            for (int d = to - from - 9; d < 9; d++) {
                nanos *= 10;
            }
            if (nanos % 1000 != 0) {
                throw new UnencodableValueException("sub-microsecond time " + text);
            }
            fraction = nanos / 1000;
        }
        return hours * ColumnTypeText.MICROS_PER_HOUR + minutes * ColumnTypeText.MICROS_PER_MINUTE
            + seconds * ColumnTypeText.MICROS_PER_SECOND + fraction;
    }

    /**
     * {@code P1Y2M-3DT4H5M6.78S} (every part present, each with its own sign, seconds a plain decimal) as the
     * canonical interval.
     */
    public static String interval(String text) {
        if (text.isEmpty() || text.charAt(0) != 'P') {
            throw malformed(text);
        }
        int[] pos = {1};
        long years = part(text, pos, 'Y');
        long months = part(text, pos, 'M');
        long days = part(text, pos, 'D');
        if (pos[0] >= text.length() || text.charAt(pos[0]) != 'T') {
            throw malformed(text);
        }
        pos[0]++;
        long hours = part(text, pos, 'H');
        long minutes = part(text, pos, 'M');
        int end = text.indexOf('S', pos[0]);
        if (end != text.length() - 1) {
            throw malformed(text);
        }
        long secondMicros = secondsToMicros(text, pos[0], end);
        long totalMonths = years * 12 + months;
        if (totalMonths != (int) totalMonths || days != (int) days) {
            throw malformed(text);
        }
        long micros = hours * ColumnTypeText.MICROS_PER_HOUR + minutes * ColumnTypeText.MICROS_PER_MINUTE
            + secondMicros;
        return ColumnTypeText.interval((int) totalMonths, (int) days, micros);
    }

    private static long part(String text, int[] pos, char unit) {
        int end = text.indexOf(unit, pos[0]);
        if (end < 0) {
            throw malformed(text);
        }
        try {
            long value = Long.parseLong(text, pos[0], end, 10);
            pos[0] = end + 1;
            return value;
        } catch (NumberFormatException e) {
            throw malformed(text);
        }
    }

    /** Seconds as printed from a double (e.g. {@code -6.000001}), rounded to the microsecond Postgres stored. */
    private static long secondsToMicros(String text, int from, int to) {
        try {
            java.math.BigDecimal seconds = new java.math.BigDecimal(text.substring(from, to));
            return seconds.movePointRight(6).setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw malformed(text);
        }
    }

    private static long digits(String text, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw malformed(text);
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static UnencodableValueException malformed(String text) {
        return new UnencodableValueException("unexpected Debezium text '" + text + "'");
    }
}
