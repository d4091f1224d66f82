package io.tributary.writer.apply;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * One {@code COPY ... FROM STDIN (FORMAT binary)} in the caller's transaction: tuples are encoded straight into a
 * reused byte buffer (Postgres' binary copy format: a signature header, then per tuple a field count and per field a
 * length and its bytes in network order, then a trailer) and handed to the driver in chunks of about
 * {@value #CHUNK} bytes. Postgres then reads each field by its length instead of scanning every byte for delimiters
 * and escapes, as it must for the text format.
 *
 * <p>Usage: {@link #open}, per tuple {@link #tuple} and one call per field, then {@link #finish}; {@link #close}
 * cancels a copy that did not finish. Not thread-safe.
 */
final class BinaryCopy implements AutoCloseable {

    private static final int CHUNK = 1 << 16;
    private static final int SHORT_TEXT = 64;
    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0,
        0, 0, 0, 0, 0, 0, 0, 0};

    private final CopyIn copy;
    private byte[] bytes = new byte[CHUNK + 4096];
    private int size;
    private long tuples;

    private BinaryCopy(CopyIn copy) {
        this.copy = copy;
        raw(HEADER);
    }

    /** Starts {@code COPY <target> FROM STDIN (FORMAT binary)}, {@code target} being a table and its columns. */
    static BinaryCopy open(Connection connection, String target) throws SQLException {
        return new BinaryCopy(connection.unwrap(PGConnection.class).getCopyAPI()
            .copyIn("COPY " + target + " FROM STDIN (FORMAT binary)"));
    }

    /** Starts a tuple of {@code fields} fields; the previous one must be complete. */
    void tuple(int fields) throws SQLException {
        if (size >= CHUNK) {
            flush();
        }
        room(2);
        bytes[size++] = (byte) (fields >>> 8);
        bytes[size++] = (byte) fields;
        tuples++;
    }

    /** A {@code bigint} field. */
    void int8(long value) {
        int32(8);
        room(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (value >>> shift);
        }
    }

    /** An {@code integer} field. */
    void int4(int value) {
        int32(4);
        int32(value);
    }

    /** A {@code smallint} field. */
    void int2(int value) {
        int32(2);
        room(2);
        bytes[size++] = (byte) (value >>> 8);
        bytes[size++] = (byte) value;
    }

    /**
     * A {@code text} field: its UTF-8 (an unpaired surrogate becomes {@code '?'}, as {@link String#getBytes} does),
     * encoded straight into the buffer when it is short and ASCII; a longer one is encoded by the JDK, whose
     * vectorized encoder and copy beat a loop per character.
     */
    void text(String value) {
        int length = value.length();
        if (length > SHORT_TEXT) {
            bytea(value.getBytes(StandardCharsets.UTF_8));
            return;
        }
        room(4 + length);
        int at = size + 4;
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                bytea(value.getBytes(StandardCharsets.UTF_8));
                return;
            }
            bytes[at++] = (byte) c;
        }
        int32(length);
        size += length;
    }

    /** A {@code bytea} (or already UTF-8 encoded {@code text}) field. */
    void bytea(byte[] value) {
        int32(value.length);
        raw(value);
    }

    /** A NULL field. */
    void nullValue() {
        int32(-1);
    }

    /**
     * Ends the copy.
     *
     * @return the tuples copied
     */
    long finish() throws SQLException {
        room(2);
        bytes[size++] = (byte) 0xFF;
        bytes[size++] = (byte) 0xFF;
        flush();
        copy.endCopy();
        return tuples;
    }

    @Override
    public void close() throws SQLException {
        if (copy.isActive()) {
            copy.cancelCopy();
        }
    }

    private void flush() throws SQLException {
        if (size > 0) {
            copy.writeToCopy(bytes, 0, size);
            size = 0;
        }
    }

    private void int32(int value) {
        room(4);
        bytes[size++] = (byte) (value >>> 24);
        bytes[size++] = (byte) (value >>> 16);
        bytes[size++] = (byte) (value >>> 8);
        bytes[size++] = (byte) value;
    }

    private void raw(byte[] value) {
        room(value.length);
        System.arraycopy(value, 0, bytes, size, value.length);
        size += value.length;
    }

    private void room(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
