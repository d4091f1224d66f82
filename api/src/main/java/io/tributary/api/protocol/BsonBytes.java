package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that BSON documents are written into element by element: documents and arrays are opened
 * with a length placeholder and closed with {@link #end}, which fills it in; strings are given as UTF-8 bytes and
 * copied as they are (BSON strings carry their length, so nothing is escaped). It serves the stream's data lines,
 * whose row JSON comes from storage as bytes and goes to a BSON client without being decoded.
 *
 * <p>Element names are {@link #name C strings} made once. Integers follow the encoding of the stream's other
 * documents ({@link BsonLines}): an int32 when the value fits, an int64 otherwise.
 *
 * <p>Not thread-safe.
 */
final class BsonBytes {

    private static final byte STRING = 0x02;
    private static final byte DOCUMENT = 0x03;
    private static final byte ARRAY = 0x04;
    private static final byte BOOLEAN = 0x08;
    private static final byte NULL = 0x0A;
    private static final byte INT32 = 0x10;
    private static final byte INT64 = 0x12;
    private static final byte[] NONE = new byte[0];

    private final int initialCapacity;
    private byte[] bytes;
    private int size;

    /** An empty buffer of {@code capacity} bytes to start with (it grows). */
    BsonBytes(int capacity) {
        this.initialCapacity = Math.max(16, capacity);
        this.bytes = new byte[initialCapacity];
    }

    /** An element name as BSON writes it: its UTF-8 bytes and a NUL; {@code name} must not contain NUL. */
    static byte[] name(String name) {
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("A BSON element name holds no NUL: " + name);
        }
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(utf8, utf8.length + 1);
    }

    /** The number of bytes written. */
    int size() {
        return size;
    }

    /** Forgets what was written, keeping the capacity. */
    void clear() {
        size = 0;
    }

    /** Forgets what was written and gives its memory back until the next write. */
    void release() {
        size = 0;
        bytes = NONE;
    }

    /** A copy of the bytes written. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** Opens a top-level document; returns its start for {@link #end}. */
    int startDocument() {
        return placeholder();
    }

    /** Opens an embedded document named {@code name}; returns its start for {@link #end}. */
    int startDocument(byte[] name) {
        element(DOCUMENT, name);
        return placeholder();
    }

    /** Opens the embedded document at position {@code index} of an array; returns its start for {@link #end}. */
    int startDocument(int index) {
        ensure(1 + AsciiDigits.MAX_DECIMAL_LENGTH + 1);
        bytes[size++] = DOCUMENT;
        size = AsciiDigits.decimal(bytes, size, index);
        bytes[size++] = 0;
        return placeholder();
    }

    /** Opens an array named {@code name}; its elements are named by their index; returns its start for {@link #end}. */
    int startArray(byte[] name) {
        element(ARRAY, name);
        return placeholder();
    }

    /** Closes the document or array opened at {@code start}, filling in its length. */
    void end(int start) {
        ensure(1);
        bytes[size++] = 0;
        putInt32(start, size - start);
    }

    /** A string element of the UTF-8 bytes {@code utf8}. */
    BsonBytes string(byte[] name, byte[] utf8) {
        element(STRING, name);
        int32(utf8.length + 1);
        ensure(utf8.length + 1);
        System.arraycopy(utf8, 0, bytes, size, utf8.length);
        size += utf8.length;
        bytes[size++] = 0;
        return this;
    }

    /** A string element of {@code value} in decimal (op ids are strings on the wire). */
    BsonBytes decimalString(byte[] name, long value) {
        element(STRING, name);
        ensure(Integer.BYTES + AsciiDigits.MAX_DECIMAL_LENGTH + 1);
        int start = size;
        size = AsciiDigits.decimal(bytes, start + Integer.BYTES, value);
        bytes[size++] = 0;
        putInt32(start, size - start - Integer.BYTES);
        return this;
    }

    /** A string element of the UUID's canonical text (8-4-4-4-12 lower-case hex digits). */
    BsonBytes uuidString(byte[] name, long most, long least) {
        element(STRING, name);
        int32(AsciiDigits.UUID_LENGTH + 1);
        ensure(AsciiDigits.UUID_LENGTH + 1);
        size = AsciiDigits.uuid(bytes, size, most, least);
        bytes[size++] = 0;
        return this;
    }

    /** An integer element: int32 when {@code value} fits, int64 otherwise. */
    BsonBytes integer(byte[] name, long value) {
        if (value == (int) value) {
            element(INT32, name);
            int32((int) value);
        } else {
            element(INT64, name);
            ensure(Long.BYTES);
            for (int i = 0; i < Long.BYTES; i++) {
                bytes[size++] = (byte) (value >>> (8 * i));
            }
        }
        return this;
    }

    /** A boolean element. */
    BsonBytes bool(byte[] name, boolean value) {
        element(BOOLEAN, name);
        ensure(1);
        bytes[size++] = (byte) (value ? 1 : 0);
        return this;
    }

    /** A null element. */
    BsonBytes nullValue(byte[] name) {
        element(NULL, name);
        return this;
    }

    /** Appends everything {@code other} holds (elements written elsewhere). */
    BsonBytes raw(BsonBytes other) {
        ensure(other.size);
        System.arraycopy(other.bytes, 0, bytes, size, other.size);
        size += other.size;
        return this;
    }

    private void element(byte type, byte[] name) {
        ensure(1 + name.length);
        bytes[size++] = type;
        System.arraycopy(name, 0, bytes, size, name.length);
        size += name.length;
    }

    /** Reserves the four bytes of a length and returns where they start. */
    private int placeholder() {
        ensure(Integer.BYTES);
        int start = size;
        size += Integer.BYTES;
        return start;
    }

    private void int32(int value) {
        ensure(Integer.BYTES);
        putInt32(size, value);
        size += Integer.BYTES;
    }

    private void putInt32(int at, int value) {
        bytes[at] = (byte) value;
        bytes[at + 1] = (byte) (value >>> 8);
        bytes[at + 2] = (byte) (value >>> 16);
        bytes[at + 3] = (byte) (value >>> 24);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(initialCapacity, Math.max(bytes.length * 2, size + more)));
        }
    }
}
