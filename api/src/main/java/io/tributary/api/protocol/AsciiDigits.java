package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;

/**
 * Decimal numbers and UUIDs written as ASCII digits into a byte array, for the encoders of the stream's lines
 * ({@link JsonBytes}, {@link BsonBytes}), which write them without a {@code String} in between.
 *
 * <p>Stateless and thread-safe.
 */
final class AsciiDigits {

    /** The digits of a UUID's canonical text: 8-4-4-4-12 hex digits and four dashes. */
    static final int UUID_LENGTH = 36;
    /** The most bytes {@link #decimal} writes: a sign and 19 digits. */
    static final int MAX_DECIMAL_LENGTH = 20;

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MIN_VALUE = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private AsciiDigits() {
    }

    /**
     * Writes {@code value} in decimal at {@code at}; {@code into} must have {@link #MAX_DECIMAL_LENGTH} bytes free
     * there. Returns the position after the last digit.
     */
    static int decimal(byte[] into, int at, long value) {
        if (value == Long.MIN_VALUE) {
            System.arraycopy(MIN_VALUE, 0, into, at, MIN_VALUE.length);
            return at + MIN_VALUE.length;
        }
        if (value < 0) {
            into[at++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        int end = at + digits;
        for (int i = end - 1; i >= at; i--) {
            into[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return end;
    }

    /**
     * Writes the 128 bits as a UUID's canonical text (lower-case hex digits, no quotes) at {@code at}; {@code into}
     * must have {@link #UUID_LENGTH} bytes free there. Returns the position after it.
     */
    static int uuid(byte[] into, int at, long most, long least) {
        at = hex(into, at, most >>> 32, 8);
        into[at++] = '-';
        at = hex(into, at, most >>> 16, 4);
        into[at++] = '-';
        at = hex(into, at, most, 4);
        into[at++] = '-';
        at = hex(into, at, least >>> 48, 4);
        into[at++] = '-';
        return hex(into, at, least, 12);
    }

    /** The lower-case hex digit of the low four bits of {@code nibble}. */
    static byte hexDigit(int nibble) {
        return HEX[nibble & 0xF];
    }

    private static int hex(byte[] into, int at, long value, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
        return at + digits;
    }
}
