package io.tributary.source.encoding.internals;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;

/**
 * The canonical text of the non-JSON-native column types, one function per type, shared by both encoders.
 * Temporal values arrive as integers: days or microseconds since 1970-01-01 (UTC for {@code timestamptz}), or
 * microseconds since midnight; {@link #INFINITY} and {@link #MINUS_INFINITY} stand for Postgres's
 * {@code 'infinity'} and {@code '-infinity'}.
 *
 * <p>Supported range for dates and timestamps: years 0001 to 9999 (BC dates and years past 9999 are rejected with
 * {@link UnencodableValueException}: the fixed-width ISO form has no room for them and JavaScript clients parse
 * the fixed form). Stateless and thread-safe.
 */
public final class ColumnTypeText {

    /** Stands for {@code 'infinity'} in the temporal functions. */
    public static final long INFINITY = Long.MAX_VALUE;
    /** Stands for {@code '-infinity'} in the temporal functions. */
    public static final long MINUS_INFINITY = Long.MIN_VALUE;

    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    /** 0001-01-01. */
    public static final long MIN_EPOCH_DAY = LocalDate.of(1, 1, 1).toEpochDay();
    /** 9999-12-31. */
    public static final long MAX_EPOCH_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ColumnTypeText() {
    }

    /**
     * The decimal as Postgres prints a {@code numeric}: plain notation with the value's own scale ({@code 1.50},
     * {@code -0.001}, never an exponent), or {@code NaN}, {@code Infinity}, {@code -Infinity}. Accepts Postgres's
     * text and {@link BigDecimal#toString()} forms ({@code 1E-7}, {@code 1E+40}).
     */
    public static String numeric(String text) {
        int length = text.length();
        if (length == 0) {
            throw new UnencodableValueException("empty numeric text");
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == 'E' || c == 'e') {
                return plain(text);
            }
            if (!(c >= '0' && c <= '9' || c == '.' || c == '-' && i == 0)) {
                return special(text);
            }
        }
        return text;
    }

    /** {@link #numeric(String)} of a {@link BigDecimal}. */
    public static String numeric(BigDecimal value) {
        return value.toPlainString();
    }

    private static String plain(String text) {
        try {
            return new BigDecimal(text).toPlainString();
        } catch (NumberFormatException e) {
            throw new UnencodableValueException("malformed numeric text '" + text + "'", e);
        }
    }

    private static String special(String text) {
        return switch (text) {
            case "NaN" -> "NaN";
            case "Infinity", "+Infinity" -> "Infinity";
            case "-Infinity" -> "-Infinity";
            default -> plain(text);
        };
    }

    /** {@code \x} followed by the bytes in lower-case hex, Postgres's {@code bytea_output = hex} form. */
    public static String bytea(byte[] bytes) {
        return bytea(bytes, 0, bytes.length);
    }

    /** {@link #bytea(byte[])} of the remaining bytes of a buffer (its position is left unchanged). */
    public static String bytea(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            return bytea(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return bytea(copy);
    }

    private static String bytea(byte[] bytes, int offset, int length) {
        char[] out = new char[2 + 2 * length];
        out[0] = '\\';
        out[1] = 'x';
        for (int i = 0; i < length; i++) {
            int b = bytes[offset + i] & 0xff;
            out[2 + 2 * i] = HEX[b >>> 4];
            out[3 + 2 * i] = HEX[b & 0xf];
        }
        return new String(out);
    }

    /** A UUID in lower case (Postgres prints it so; other sources may not). */
    public static String uuid(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return text.toLowerCase(java.util.Locale.ROOT);
            }
        }
        return text;
    }

    /** {@code YYYY-MM-DD}, or {@code infinity} / {@code -infinity}. */
    public static String date(long epochDay) {
        if (epochDay == INFINITY) {
            return "infinity";
        }
        if (epochDay == MINUS_INFINITY) {
            return "-infinity";
        }
        checkDay(epochDay, "date");
        StringBuilder out = new StringBuilder(10);
        appendDate(out, LocalDate.ofEpochDay(epochDay));
        return out.toString();
    }

    /** {@code YYYY-MM-DDTHH:MM:SS.ffffff} (always six fraction digits), or {@code infinity} / {@code -infinity}. */
    public static String timestamp(long epochMicros) {
        return timestamp(epochMicros, false);
    }

    /** A UTC instant: {@code YYYY-MM-DDTHH:MM:SS.ffffffZ}, or {@code infinity} / {@code -infinity}. */
    public static String timestamptz(long epochMicros) {
        return timestamp(epochMicros, true);
    }

    private static String timestamp(long epochMicros, boolean utc) {
        if (epochMicros == INFINITY) {
            return "infinity";
        }
        if (epochMicros == MINUS_INFINITY) {
            return "-infinity";
        }
        long day = Math.floorDiv(epochMicros, MICROS_PER_DAY);
        checkDay(day, utc ? "timestamptz" : "timestamp");
        StringBuilder out = new StringBuilder(27);
        appendDate(out, LocalDate.ofEpochDay(day));
        out.append('T');
        appendTime(out, Math.floorMod(epochMicros, MICROS_PER_DAY));
        if (utc) {
            out.append('Z');
        }
        return out.toString();
    }

    /** {@code HH:MM:SS.ffffff}, from 00:00:00.000000 to 24:00:00.000000 (Postgres allows the end of day). */
    public static String time(long micros) {
        if (micros < 0 || micros > MICROS_PER_DAY) {
            throw new UnencodableValueException("time of day out of range: " + micros + " microseconds");
        }
        StringBuilder out = new StringBuilder(15);
        appendTime(out, micros);
        return out.toString();
    }

    /**
     * A {@code timetz} as the UTC time of day {@code HH:MM:SS.ffffffZ}. The stored offset is not kept: Debezium
     * 3.6 normalizes {@code timetz} to UTC on the WAL path, so the snapshot path does the same.
     */
    public static String timetz(long utcMicros) {
        if (utcMicros < 0 || utcMicros >= MICROS_PER_DAY) {
            throw new UnencodableValueException("UTC time of day out of range: " + utcMicros + " microseconds");
        }
        StringBuilder out = new StringBuilder(16);
        appendTime(out, utcMicros);
        return out.append('Z').toString();
    }

    /**
     * An ISO 8601 duration with every part present, {@code P<y>Y<m>M<d>DT<h>H<min>M<s>S}, in the form Debezium's
     * {@code interval.handling.mode=string} prints: parts as Postgres splits them (years and months from the
     * months, hours, minutes and seconds from the microseconds, each carrying its own sign), seconds without
     * trailing fraction zeros. Examples: {@code P1Y2M-3DT4H5M6.78S}, {@code P0Y0M0DT0H0M0S},
     * {@code P-1Y-2M3DT-4H-5M-6.000001S}.
     */
    public static String interval(int months, int days, long micros) {
        long hours = micros / MICROS_PER_HOUR;
        long rest = micros % MICROS_PER_HOUR;
        long minutes = rest / MICROS_PER_MINUTE;
        long secondMicros = rest % MICROS_PER_MINUTE;
        StringBuilder out = new StringBuilder(32);
        out.append('P').append(months / 12).append('Y').append(months % 12).append('M').append(days).append("DT")
            .append(hours).append('H').append(minutes).append('M');
        if (secondMicros < 0) {
            out.append('-');
            secondMicros = -secondMicros;
        }
        out.append(secondMicros / MICROS_PER_SECOND);
        long fraction = secondMicros % MICROS_PER_SECOND;
        if (fraction != 0) {
            int digits = 6;
            while (fraction % 10 == 0) {
                fraction /= 10;
                digits--;
            }
            out.append('.');
            String f = Long.toString(fraction);
            for (int i = f.length(); i < digits; i++) {
                out.append('0');
            }
            out.append(f);
        }
        return out.append('S').toString();
    }

    private static void checkDay(long epochDay, String type) {
        if (epochDay < MIN_EPOCH_DAY || epochDay > MAX_EPOCH_DAY) {
            throw new UnencodableValueException(type + " outside the supported years 0001-9999 (BC dates and years"
                + " after 9999 are not supported): " + (epochDay < MIN_EPOCH_DAY ? "before" : "after") + " "
                + (epochDay < MIN_EPOCH_DAY ? "0001-01-01" : "9999-12-31"));
        }
    }

    private static void appendDate(StringBuilder out, LocalDate date) {
        pad(out, date.getYear(), 4);
        out.append('-');
        pad(out, date.getMonthValue(), 2);
        out.append('-');
        pad(out, date.getDayOfMonth(), 2);
    }

    private static void appendTime(StringBuilder out, long micros) {
        pad(out, micros / MICROS_PER_HOUR, 2);
        out.append(':');
        pad(out, micros / MICROS_PER_MINUTE % 60, 2);
        out.append(':');
        pad(out, micros / MICROS_PER_SECOND % 60, 2);
        out.append('.');
        pad(out, micros % MICROS_PER_SECOND, 6);
    }

    private static void pad(StringBuilder out, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        out.append(digits);
    }
}
