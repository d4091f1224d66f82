package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A strict big-endian reader over one binary envelope: every read checks that its bytes are there, lengths and
 * numbers that cannot be valid are rejected, texts must be valid UTF-8. Every failure is a {@link MalformedInput}
 * naming the field. Not thread-safe; one per record.
 */
final class BinaryReader {

    private final byte[] input;
    private int at;

    BinaryReader(byte[] input) {
        this.input = input;
    }

    /**
     * A reader of {@code value} past its two-byte header, which must be binary envelope version {@code version} and
     * type {@code type}; {@code expected} names the type in the error (for example {@code "1: row"}).
     */
    static BinaryReader afterHeader(byte[] value, int version, int type, String expected) {
        BinaryReader in = new BinaryReader(value);
        int found = in.u8("version");
        if (found != version) {
            throw new MalformedInput("unknown version " + found + " (expected " + ValueEncoder.VERSION
                + " as JSON or " + version + " as binary)");
        }
        int foundType = in.u8("type");
        if (foundType != type) {
            throw new MalformedInput("unknown binary type " + foundType + " (expected " + expected + ")");
        }
        return in;
    }

    /** An unsigned byte. */
    int u8(String what) {
        need(1, what);
        return input[at++] & 0xFF;
    }

    /** An unsigned 16-bit length. */
    int u16(String what) {
        need(2, what);
        int value = (input[at] & 0xFF) << 8 | input[at + 1] & 0xFF;
        at += 2;
        return value;
    }

    /** A 32-bit length, which must be {@code >= 0}. */
    int u32(String what) {
        int value = i32(what);
        if (value < 0) {
            throw new MalformedInput(what + " must be >= 0, found " + value);
        }
        return value;
    }

    /** A signed 32-bit integer. */
    int i32(String what) {
        need(4, what);
        int value = (input[at] & 0xFF) << 24 | (input[at + 1] & 0xFF) << 16 | (input[at + 2] & 0xFF) << 8
            | input[at + 3] & 0xFF;
        at += 4;
        return value;
    }

    /** A signed 64-bit integer. */
    long i64(String what) {
        need(8, what);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | input[at + i] & 0xFFL;
        }
        at += 8;
        return value;
    }

    /** The next {@code length} bytes, copied. */
    byte[] bytes(int length, String what) {
        need(length, what);
        byte[] value = Arrays.copyOfRange(input, at, at + length);
        at += length;
        return value;
    }

    /** A table: its schema and its name, each a UTF-8 text behind a {@code u16} length. */
    TableId table() {
        return new TableId(text(u16("schema length"), "schema"), text(u16("table name length"), "table name"));
    }

    /** The next {@code length} bytes as UTF-8 text. */
    String text(int length, String what) {
        need(length, what);
        if (isAscii(length)) {
            String ascii = new String(input, at, length, StandardCharsets.US_ASCII);
            at += length;
            return ascii;
        }
        String value;
        try {
            value = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(input, at, length)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedInput(what + " is not UTF-8", e);
        }
        at += length;
        return value;
    }

    private boolean isAscii(int length) {
        for (int i = at; i < at + length; i++) {
            if (input[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Checks that every byte was read. */
    void finish() {
        if (at != input.length) {
            throw new MalformedInput("trailing content: " + (input.length - at) + " bytes after the envelope");
        }
    }

    private void need(int length, String what) {
        if (length > input.length - at) {
            throw new MalformedInput("unexpected end of input in " + what + " (" + length + " bytes needed, "
                + (input.length - at) + " left)");
        }
    }
}
