package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import java.io.IOException;
import java.util.Arrays;

/**
 * A strict pull reader over one encoded key or value, with the primitives of the wire format. Every method that
 * reads a value first advances to it. Raw sub-trees (rows, keys) are returned as the exact bytes of the input.
 * Not thread-safe; one per record.
 */
public final class JsonReader implements AutoCloseable {

    private final byte[] input;
    private final JsonParser parser;

    private JsonReader(byte[] input, JsonParser parser) {
        this.input = input;
        this.parser = parser;
    }

    /**
     * A reader over {@code input}, which must be UTF-8.
     *
     * @throws MalformedInput if Jackson detects another encoding (UTF-16 or UTF-32)
     */
    public static JsonReader of(byte[] input) throws IOException {
        JsonParser parser = CanonicalJsonFactory.FACTORY.createParser(input);
        if (!(parser instanceof UTF8StreamJsonParser)) {
            parser.close();
            throw new MalformedInput("not UTF-8 JSON (the bytes look like UTF-16 or UTF-32)");
        }
        return new JsonReader(input, parser);
    }

    /** Advances one token; the end of input is malformed here. */
    public JsonToken next() throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new MalformedInput("unexpected end of input");
        }
        return token;
    }

    /** Advances one token, which must be {@code expected}. */
    public void expect(JsonToken expected, String what) throws IOException {
        expect(expected, "", what, "");
    }

    /**
     * Advances one token, which must be {@code expected}; the error names {@code prefix + what + suffix}, a text
     * only built if the token is wrong.
     */
    private void expect(JsonToken expected, String prefix, String what, String suffix) throws IOException {
        JsonToken token = next();
        if (token != expected) {
            throw new MalformedInput("expected " + prefix + what + suffix + ", found " + describe(token));
        }
    }

    /** Advances past the value of the current field, whatever it is. */
    public void skipValue() throws IOException {
        next();
        parser.skipChildren();
    }

    /** The next field name of the current object, or {@code null} at its end. */
    public String nextField() throws IOException {
        JsonToken token = next();
        if (token == JsonToken.END_OBJECT) {
            return null;
        }
        if (token != JsonToken.FIELD_NAME) {
            throw new MalformedInput("expected a field name, found " + describe(token));
        }
        return parser.currentName();
    }

    /** Reads a string value. */
    public String string(String what) throws IOException {
        return string(what, "");
    }

    private String string(String what, String part) throws IOException {
        expect(JsonToken.VALUE_STRING, "", what, part + " (a string)");
        return parser.getText();
    }

    /** Reads a non-negative integer value that fits a {@code long}. */
    public long nonNegativeLong(String what) throws IOException {
        expect(JsonToken.VALUE_NUMBER_INT, "", what, " (an integer)");
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new MalformedInput(what + " out of range: " + parser.getText());
        }
        long value = parser.getLongValue();
        if (value < 0) {
            throw new MalformedInput(what + " must be >= 0, found " + value);
        }
        return value;
    }

    /** Reads a non-negative integer value that fits an {@code int}. */
    public int nonNegativeInt(String what) throws IOException {
        long value = nonNegativeLong(what);
        if (value > Integer.MAX_VALUE) {
            throw new MalformedInput(what + " out of range: " + value);
        }
        return (int) value;
    }

    /** Reads {@code ["schema","name"]}. */
    public TableId table(String what) throws IOException {
        expect(JsonToken.START_ARRAY, "", what, " (a [schema, name] array)");
        TableId table = tableParts(what);
        expect(JsonToken.END_ARRAY, "the end of ", what, "");
        return table;
    }

    /** Reads two string values, schema and table name, inside an array. */
    public TableId tableParts(String what) throws IOException {
        String schema = string(what, " schema");
        String name = string(what, " name");
        try {
            return new TableId(schema, name);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(what + ": " + e.getMessage(), e);
        }
    }

    /** Reads an LSN string ({@code X/X}). */
    public Lsn lsn(String what) throws IOException {
        String text = string(what);
        try {
            return Lsn.parse(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(what + ": " + e.getMessage(), e);
        }
    }

    /** Reads a snapshot string ({@code xmin:xmax:xip,...}). */
    public PgSnapshot snapshot(String what) throws IOException {
        String text = string(what);
        try {
            return SnapshotText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(what + ": " + e.getMessage(), e);
        }
    }

    /** Reads a JSON object value, returning its exact input bytes. */
    public RowJson row(String what) throws IOException {
        return RowJson.ofUtf8(raw(JsonToken.START_OBJECT, what, " (an object)"));
    }

    /** Reads a JSON array value, returning its exact input bytes. */
    public KeyValues keyValues(String what) throws IOException {
        byte[] raw = raw(JsonToken.START_ARRAY, what, " (an array)");
        try {
            return KeyValues.ofUtf8(raw);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(what + ": " + e.getMessage(), e);
        }
    }

    private byte[] raw(JsonToken start, String what, String kind) throws IOException {
        expect(start, "", what, kind);
        long from = parser.currentTokenLocation().getByteOffset();
        parser.skipChildren();
        long to = parser.currentTokenLocation().getByteOffset() + 1;
        if (from < 0 || to <= from || to > input.length) {
            throw new IllegalStateException("Parser reported no byte offsets for " + what);
        }
        return Arrays.copyOfRange(input, (int) from, (int) to);
    }

    /** Checks that nothing but whitespace follows the top-level value. */
    public void finish() throws IOException {
        JsonToken token = parser.nextToken();
        if (token != null) {
            throw new MalformedInput("trailing content after the top-level value: " + describe(token));
        }
    }

    private String describe(JsonToken token) throws IOException {
        switch (token) {
            case FIELD_NAME:
                return "field '" + parser.currentName() + "'";
            case VALUE_STRING:
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                String text = parser.getText();
                return token.name().toLowerCase().replace("value_", "") + " "
                    + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
            default:
                return token.asString() == null ? token.name().toLowerCase() : "'" + token.asString() + "'";
        }
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }
}
