package io.tributary.api.protocol;

import java.util.Arrays;

/**
 * A growable byte buffer that JSON text is written into as UTF-8 bytes: raw ASCII, decimal numbers, and strings
 * given as UTF-8 bytes, escaped for a JSON string ({@code "}, {@code \} and control characters; every other byte,
 * multi-byte UTF-8 included, is copied as it is). It serves the stream's data lines, whose row JSON comes from storage
 * as bytes and goes to the client without being decoded.
 *
 * <p>Not thread-safe.
 */
public final class JsonBytes {

    /** Bytes that need an escape inside a JSON string: control characters, quote and backslash. */
    private static final boolean[] ESCAPED = new boolean[256];

    static {
        for (int b = 0; b < 0x20; b++) {
            ESCAPED[b] = true;
        }
        ESCAPED['"'] = true;
        ESCAPED['\\'] = true;
    }

    private static final byte[] NONE = new byte[0];

    private final int initialCapacity;
    private byte[] bytes;
    private int size;

    /** An empty buffer of {@code capacity} bytes to start with (it grows). */
    public JsonBytes(int capacity) {
        this.initialCapacity = Math.max(16, capacity);
        this.bytes = new byte[initialCapacity];
    }

    /** The number of bytes written. */
    public int size() {
        return size;
    }

    /** Forgets what was written, keeping the capacity. */
    public void clear() {
        size = 0;
    }

    /**
     * Forgets what was written and gives its memory back: the buffer holds nothing until the next write allocates
     * the starting capacity again (for a buffer that waits idle for long).
     */
    public void release() {
        size = 0;
        bytes = NONE;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** Appends {@code text}, which must be ASCII and need no escape (field names, punctuation, literals). */
    public JsonBytes ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
        return this;
    }

    /** Appends one ASCII byte. */
    public JsonBytes ascii(char c) {
        ensure(1);
        bytes[size++] = (byte) c;
        return this;
    }

    /** Appends bytes as they are (JSON text written elsewhere). */
    public JsonBytes raw(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, size, length);
        size += length;
        return this;
    }

    /** Appends everything {@code other} holds. */
    public JsonBytes raw(JsonBytes other) {
        return raw(other.bytes, 0, other.size);
    }

    /** Appends {@code value} in decimal. */
    public JsonBytes number(long value) {
        ensure(AsciiDigits.MAX_DECIMAL_LENGTH);
        size = AsciiDigits.decimal(bytes, size, value);
        return this;
    }

    /** Appends {@code value} in decimal inside quotes: op ids are strings on the wire. */
    public JsonBytes quotedNumber(long value) {
        return ascii('"').number(value).ascii('"');
    }

    /** Appends a JSON string of the UTF-8 bytes {@code utf8}, quotes included. */
    public JsonBytes string(byte[] utf8) {
        ascii('"');
        escaped(utf8);
        return ascii('"');
    }

    /** Appends a JSON string of {@code text}, quotes included. */
    public JsonBytes string(String text) {
        return string(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Appends the UTF-8 bytes {@code utf8} escaped for the inside of a JSON string. */
    public JsonBytes escaped(byte[] utf8) {
        int length = utf8.length;
        ensure(length);
        int run = 0;
        for (int i = 0; i < length; i++) {
            int b = utf8[i] & 0xFF;
            if (ESCAPED[b]) {
                raw(utf8, run, i - run);
                escape(b);
                run = i + 1;
            }
        }
        return raw(utf8, run, length - run);
    }

    /** Appends the 128 bits as a UUID's canonical text (8-4-4-4-12 lower-case hex digits), in quotes. */
    public JsonBytes quotedUuid(long most, long least) {
        ensure(AsciiDigits.UUID_LENGTH + 2);
        bytes[size++] = '"';
        size = AsciiDigits.uuid(bytes, size, most, least);
        bytes[size++] = '"';
        return this;
    }

    private void escape(int b) {
        ensure(6);
        bytes[size++] = '\\';
        switch (b) {
            case '"' -> bytes[size++] = '"';
            case '\\' -> bytes[size++] = '\\';
            case '\n' -> bytes[size++] = 'n';
            case '\r' -> bytes[size++] = 'r';
            case '\t' -> bytes[size++] = 't';
            case '\b' -> bytes[size++] = 'b';
            case '\f' -> bytes[size++] = 'f';
            default -> {
                bytes[size++] = 'u';
                bytes[size++] = '0';
                bytes[size++] = '0';
                bytes[size++] = AsciiDigits.hexDigit(b >> 4);
                bytes[size++] = AsciiDigits.hexDigit(b);
            }
        }
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(initialCapacity, Math.max(bytes.length * 2, size + more)));
        }
    }
}
