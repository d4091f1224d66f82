package io.tributary.syncrules.internals.eval;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code interval} as Postgres prints it (the default {@code IntervalStyle}, {@code postgres}), which is what
 * PowerSync syncs, from the canonical ISO 8601 form with every part present: {@code P1Y2M-3DT4H5M6.78S} becomes
 * {@code 1 year 2 mons -3 days +04:05:06.78}, {@code P0Y0M0DT0H0M0S} becomes {@code 00:00:00}. The form is
 * recognized by shape, so a text value of exactly that shape is rewritten too. The same in both editions.
 * Stateless and thread-safe.
 */
final class ClientIntervals {

    private static final Pattern ISO = Pattern.compile(
        "P(-?\\d{1,9})Y(-?\\d{1,9})M(-?\\d{1,9})DT(-?\\d{1,12})H(-?\\d{1,12})M(-?)(\\d{1,12})(?:\\.(\\d{1,6}))?S");

    private ClientIntervals() {
    }

    /** Whether a text starting with {@code first} may have the interval shape (and so be rewritten). */
    static boolean mayRewrite(int first) {
        return first == 'P';
    }

    /** Postgres's text of {@code text} if it has the shape of a canonical interval, else empty. */
    static Optional<String> clientText(String text) {
        if (text.isEmpty() || text.charAt(0) != 'P') {
            return Optional.empty();
        }
        Matcher m = ISO.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        DateParts parts = new DateParts(out);
        parts.add(Long.parseLong(m.group(1)), "year");
        parts.add(Long.parseLong(m.group(2)), "mon");
        parts.add(Long.parseLong(m.group(3)), "day");
        long hours = Long.parseLong(m.group(4));
        long minutes = Long.parseLong(m.group(5));
        boolean negativeSeconds = !m.group(6).isEmpty();
        long seconds = Long.parseLong(m.group(7));
        String fraction = m.group(8) == null ? "" : trimZeros(m.group(8));
        boolean zeroTime = hours == 0 && minutes == 0 && seconds == 0 && fraction.isEmpty();
        if (parts.none || !zeroTime) {
            boolean minus = hours < 0 || minutes < 0 || negativeSeconds && !(seconds == 0 && fraction.isEmpty());
            if (!parts.none) {
                out.append(' ');
            }
            out.append(minus ? "-" : parts.lastNegative ? "+" : "");
            two(out, Math.abs(hours)).append(':');
            two(out, Math.abs(minutes)).append(':');
            two(out, seconds);
            if (!fraction.isEmpty()) {
                out.append('.').append(fraction);
            }
        }
        return Optional.of(out.toString());
    }

    /**
     * The year, month and day parts as Postgres writes them: non-zero ones only, plural unless 1, and a {@code +}
     * before a positive part that follows a negative one. Not thread-safe: one per interval.
     */
    private static final class DateParts {
        private final StringBuilder out;
        private boolean none = true;
        private boolean lastNegative;

        DateParts(StringBuilder out) {
            this.out = out;
        }

        void add(long value, String unit) {
            if (value == 0) {
                return;
            }
            if (!none) {
                out.append(' ');
            }
            if (lastNegative && value > 0) {
                out.append('+');
            }
            out.append(value).append(' ').append(unit);
            if (value != 1) {
                out.append('s');
            }
            lastNegative = value < 0;
            none = false;
        }
    }

    private static StringBuilder two(StringBuilder out, long value) {
        return (value < 10 ? out.append('0') : out).append(value);
    }

    private static String trimZeros(String digits) {
        int end = digits.length();
        while (end > 0 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }
}
