package io.tributary.topics.messages;

/**
 * A Postgres WAL position (log sequence number): an unsigned 64-bit byte position in the write-ahead log.
 *
 * <p>Text form is Postgres's own, {@code %X/%X} of the high and low 32 bits (upper-case hex, no padding), e.g.
 * {@code 16/B374D848}, as {@code pg_current_wal_lsn()} prints it. Ordering is unsigned.
 *
 * @param value the position as an unsigned 64-bit value
 */
public record Lsn(long value) implements Comparable<Lsn> {

    /** {@code 0/0}: Postgres's invalid LSN, below every real position. */
    public static final Lsn ZERO = new Lsn(0);

    /** The position with unsigned 64-bit value {@code value}. */
    public static Lsn of(long value) {
        return new Lsn(value);
    }

    /**
     * Parses Postgres's text form {@code X/X} (hex, either case, 1 to 8 digits each side).
     *
     * @throws IllegalArgumentException if {@code text} is not of that form
     */
    public static Lsn parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 1 || slash > 8 || slash == text.length() - 1 || text.length() - slash - 1 > 8) {
            throw notAnLsn(text);
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < text.length(); i++) {
            if (i == slash) {
                continue;
            }
            int digit = hexDigit(text.charAt(i));
            if (digit < 0) {
                throw notAnLsn(text);
            }
            if (i < slash) {
                high = high << 4 | digit;
            } else {
                low = low << 4 | digit;
            }
        }
        return new Lsn(high << 32 | low);
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        } else if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        } else if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static IllegalArgumentException notAnLsn(String text) {
        return new IllegalArgumentException("Not an LSN (expected hex 'X/X' like '16/B374D848'): '" + text + "'");
    }

    /** Whether this position is strictly after {@code other}. */
    public boolean isAfter(Lsn other) {
        return compareTo(other) > 0;
    }

    /** Whether this position is strictly before {@code other}. */
    public boolean isBefore(Lsn other) {
        return compareTo(other) < 0;
    }

    /** The later of the two positions. */
    public static Lsn max(Lsn a, Lsn b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int compareTo(Lsn other) {
        return Long.compareUnsigned(value, other.value);
    }

    /** Postgres's text form, e.g. {@code 16/B374D848}. */
    @Override
    public String toString() {
        return Long.toHexString(value >>> 32).toUpperCase() + "/" + Long.toHexString(value & 0xFFFFFFFFL).toUpperCase();
    }
}
