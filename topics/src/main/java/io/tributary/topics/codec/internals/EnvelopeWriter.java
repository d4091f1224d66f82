package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Writes one compact JSON envelope straight into a byte array, producing exactly the bytes the shared Jackson
 * generator ({@link CanonicalJsonFactory#FACTORY}) writes for the same calls: strings of printable ASCII without
 * {@code "} or {@code \} are copied as they are, any other string is escaped by Jackson itself; raw values
 * (rows, keys) are their UTF-8 bytes, copied.
 * Separators are the caller's: {@link #field} writes {@code ,"name":} after the first member.
 * Not thread-safe; one per record.
 */
final class EnvelopeWriter {

    private byte[] buffer;
    private int size;
    private boolean first = true;

    EnvelopeWriter(int sizeHint) {
        this.buffer = new byte[Math.max(sizeHint, 64)];
    }

    /** Writes {@code {"name":} (the first member of the object). */
    EnvelopeWriter startObject(String firstField) {
        put((byte) '{');
        return field(firstField);
    }

    /** Writes {@code }}. */
    EnvelopeWriter endObject() {
        put((byte) '}');
        return this;
    }

    /** Writes a member name (a plain ASCII constant), preceded by a comma unless it is the first. */
    EnvelopeWriter field(String name) {
        ensure(name.length() + 4);
        if (!first) {
            buffer[size++] = ',';
        }
        first = false;
        buffer[size++] = '"';
        for (int i = 0; i < name.length(); i++) {
            buffer[size++] = (byte) name.charAt(i);
        }
        buffer[size++] = '"';
        buffer[size++] = ':';
        return this;
    }

    /** Writes {@code [}. */
    EnvelopeWriter startArray() {
        put((byte) '[');
        return this;
    }

    /** Writes {@code ]}. */
    EnvelopeWriter endArray() {
        put((byte) ']');
        return this;
    }

    /** Writes {@code ,} between array elements. */
    EnvelopeWriter comma() {
        put((byte) ',');
        return this;
    }

    /** Writes a string value, escaped as Jackson escapes it. */
    EnvelopeWriter string(String value) {
        int length = value.length();
        ensure(length + 2);
        int start = size;
        buffer[size++] = '"';
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                size = start;
                return bytes(jackson(value));
            }
            buffer[size++] = (byte) c;
        }
        buffer[size++] = '"';
        return this;
    }

    /** Writes a decimal integer. */
    EnvelopeWriter number(long value) {
        ensure(20);
        if (value >= 0 && value < 10) {
            buffer[size++] = (byte) ('0' + value);
            return this;
        }
        String text = Long.toString(value);
        for (int i = 0; i < text.length(); i++) {
            buffer[size++] = (byte) text.charAt(i);
        }
        return this;
    }

    /** Writes bytes already encoded (a quoted string or a raw value). */
    EnvelopeWriter bytes(byte[] encoded) {
        ensure(encoded.length);
        System.arraycopy(encoded, 0, buffer, size, encoded.length);
        size += encoded.length;
        return this;
    }

    /** The bytes written. */
    byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    /** The JSON string of {@code value}, quoted and escaped as {@link #string} writes it, as UTF-8. */
    static byte[] quotedString(String value) {
        EnvelopeWriter w = new EnvelopeWriter(value.length() + 2);
        w.string(value);
        return w.toByteArray();
    }

    private static byte[] jackson(String value) {
        ByteArrayBuilder out = new ByteArrayBuilder(value.length() + 16);
        try (JsonGenerator g = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            g.writeString(value);
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory failed", e);
        }
        return out.toByteArray();
    }

    private void put(byte b) {
        ensure(1);
        buffer[size++] = b;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }
}
