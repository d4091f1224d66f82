package io.tributary.api.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.bson.BsonBinaryWriter;
import org.bson.io.BasicOutputBuffer;

/**
 * Encodes the lines of a sync stream as BSON documents ({@code application/vnd.powersync.bson-stream}: documents
 * one after another, each starting with its own length). A document has exactly the fields of the NDJSON line it is
 * made from, in the same order: strings stay strings (op ids are decimal strings in both), {@code true}/{@code false}
 * and {@code null} their BSON kinds, objects documents, arrays arrays; an integer is an int32 when it fits, else an
 * int64 (an op's unsigned 32-bit checksum may need one, the client reads both), and a number with a fraction or an
 * exponent a double.
 *
 * <p>Stateless and thread-safe.
 */
public final class BsonLines {

    private BsonLines() {
    }

    /**
     * The BSON document of one NDJSON line (a JSON object, optionally followed by {@code \n}).
     *
     * @throws IllegalArgumentException if {@code line} is not one JSON object
     */
    public static byte[] document(byte[] line) {
        BasicOutputBuffer out = new BasicOutputBuffer(Math.max(64, line.length + line.length / 8));
        try (JsonParser parser = CanonicalJsonFactory.FACTORY.createParser(line);
             BsonBinaryWriter writer = new BsonBinaryWriter(out)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("A sync line is not a JSON object: " + preview(line));
            }
            writer.writeStartDocument();
            copyMembers(parser, writer);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("A sync line holds more than one JSON value: " + preview(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Encoding a sync line as BSON failed", e);
        }
        return Arrays.copyOf(out.getInternalBuffer(), out.getPosition());
    }

    /** Copies the members of the object whose START_OBJECT the parser just read, and its END_OBJECT. */
    private static void copyMembers(JsonParser parser, BsonBinaryWriter writer) throws IOException {
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            writer.writeName(parser.currentName());
            copyValue(parser, parser.nextToken(), writer);
        }
        writer.writeEndDocument();
    }

    private static void copyValue(JsonParser parser, JsonToken token, BsonBinaryWriter writer) throws IOException {
        switch (token) {
            case START_OBJECT -> {
                writer.writeStartDocument();
                copyMembers(parser, writer);
            }
            case START_ARRAY -> {
                writer.writeStartArray();
                for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
                    copyValue(parser, item, writer);
                }
                writer.writeEndArray();
            }
            case VALUE_STRING -> writer.writeString(parser.getText());
            case VALUE_NUMBER_INT -> {
                switch (parser.getNumberType()) {
                    case INT -> writer.writeInt32(parser.getIntValue());
                    case LONG -> writer.writeInt64(parser.getLongValue());
                    default -> writer.writeDouble(parser.getDoubleValue());
                }
            }
            case VALUE_NUMBER_FLOAT -> writer.writeDouble(parser.getDoubleValue());
            case VALUE_TRUE -> writer.writeBoolean(true);
            case VALUE_FALSE -> writer.writeBoolean(false);
            case VALUE_NULL -> writer.writeNull();
            default -> throw new IllegalArgumentException("Unexpected JSON token in a sync line: " + token);
        }
    }

    private static String preview(byte[] line) {
        String text = new String(line, 0, Math.min(line.length, 80), java.nio.charset.StandardCharsets.UTF_8);
        return line.length > 80 ? text + "..." : text;
    }
}
