package io.tributary.source.encoding.internals;

import java.time.LocalDate;

/**
 * Parses the text Postgres prints for temporal values under {@code DateStyle = ISO} (pgjdbc insists on it) into
 * the integers {@link ColumnTypeText} formats: days or microseconds since 1970-01-01, microseconds since midnight.
 * {@code infinity}/{@code -infinity} become {@link ColumnTypeText#INFINITY}/{@link ColumnTypeText#MINUS_INFINITY}.
 * BC years and years past 9999 are read too (as ISO years, 1 BC being year 0): a {@code timestamptz} near the
 * ends of the supported range may print so in a session time zone and still be in range in UTC; the range is
 * checked by {@link ColumnTypeText}. Stateless and thread-safe.
 */
public final class PgTemporalText {

    private PgTemporalText() {
    }

    /** {@code 2020-01-02}. */
    public static long date(String text) {
        long special = special(text);
        if (special != 0) {
            return special;
        }
        Cursor c = new Cursor(text);
        long day = c.date();
        c.end();
        return day;
    }

    /** {@code 2020-01-02 03:04:05.123456}: microseconds since the epoch, read as if UTC. */
    public static long timestamp(String text) {
        long special = special(text);
        if (special != 0) {
            return special;
        }
        Cursor c = new Cursor(text);
        long day = c.date();
        c.expect(' ');
        long micros = c.time();
        c.end();
        return day * ColumnTypeText.MICROS_PER_DAY + micros;
    }

    /** {@code 2020-01-02 03:04:05.123456+02} (any session time zone): microseconds since the epoch, UTC. */
    public static long timestamptz(String text) {
        long special = special(text);
        if (special != 0) {
            return special;
        }
        Cursor c = new Cursor(text);
        long day = c.date();
        c.expect(' ');
        long micros = c.time();
        long offsetSeconds = c.offset();
        c.end();
        return day * ColumnTypeText.MICROS_PER_DAY + micros - offsetSeconds * ColumnTypeText.MICROS_PER_SECOND;
    }

    /** {@code 03:04:05.5} (up to {@code 24:00:00}): microseconds since midnight. */
    public static long time(String text) {
        Cursor c = new Cursor(text);
        long micros = c.time();
        c.end();
        return micros;
    }

    /** {@code 03:04:05.5+05:30}: the UTC time of day in microseconds, {@code [0, 24h)}. */
    public static long timetzUtc(String text) {
        Cursor c = new Cursor(text);
        long micros = c.time();
        long offsetSeconds = c.offset();
        c.end();
        return Math.floorMod(micros - offsetSeconds * ColumnTypeText.MICROS_PER_SECOND, ColumnTypeText.MICROS_PER_DAY);
    }

    private static long special(String text) {
        if ("infinity".equals(text)) {
            return ColumnTypeText.INFINITY;
        }
        if ("-infinity".equals(text)) {
            return ColumnTypeText.MINUS_INFINITY;
        }
        return 0;
    }

    private static final class Cursor {
        private final String text;
        private int i;

        Cursor(String text) {
            this.text = text;
        }

        long date() {
            int year = digits(4, 9);
            expect('-');
            int month = digits(2, 2);
            expect('-');
            int dayOfMonth = digits(2, 2);
            int isoYear = text.endsWith(" BC") ? 1 - year : year;
            try {
                return LocalDate.of(isoYear, month, dayOfMonth).toEpochDay();
            } catch (java.time.DateTimeException e) {
                throw malformed();
            }
        }

        long time() {
            long hour = digits(2, 2);
            expect(':');
            long minute = digits(2, 2);
            expect(':');
            long second = digits(2, 2);
            long fraction = 0;
            if (i < text.length() && text.charAt(i) == '.') {
                i++;
                int start = i;
                fraction = digits(1, 6);
                for (int d = i - start; d < 6; d++) {
                    fraction *= 10;
                }
            }
            long micros = hour * ColumnTypeText.MICROS_PER_HOUR + minute * ColumnTypeText.MICROS_PER_MINUTE
                + second * ColumnTypeText.MICROS_PER_SECOND + fraction;
            if (minute > 59 || second > 59 || micros > ColumnTypeText.MICROS_PER_DAY) {
                throw malformed();
            }
            return micros;
        }

        long offset() {
            if (i >= text.length()) {
                throw malformed();
            }
            char sign = text.charAt(i);
            if (sign != '+' && sign != '-') {
                throw malformed();
            }
            i++;
            long seconds = digits(2, 2) * 3600L;
            if (i < text.length() && text.charAt(i) == ':') {
                i++;
                seconds += digits(2, 2) * 60L;
                if (i < text.length() && text.charAt(i) == ':') {
                    i++;
                    seconds += digits(2, 2);
                }
            }
            return sign == '-' ? -seconds : seconds;
        }

        void expect(char c) {
            if (i >= text.length() || text.charAt(i) != c) {
                throw malformed();
            }
            i++;
        }

        void end() {
            if (text.startsWith(" BC", i)) {
                i += 3;
            }
            if (i != text.length()) {
                throw malformed();
            }
        }

        private int digits(int min, int max) {
            int start = i;
            int value = 0;
            while (i < text.length() && i - start < max) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    break;
                }
                value = value * 10 + (c - '0');
                i++;
            }
            if (i - start < min) {
                throw malformed();
            }
            return value;
        }

        private UnencodableValueException malformed() {
            return new UnencodableValueException("malformed date/time text '" + text + "'");
        }
    }
}
