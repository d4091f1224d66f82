package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;

/**
 * The re-writing of {@code json}/{@code jsonb} values into the canonical encoding; the Jackson configuration is
 * {@link CanonicalJsonFactory#DOCUMENT_FACTORY}.
 *
 * <p>Output: compact (no whitespace), strings escaped the way Jackson's default generator escapes them (quote,
 * backslash and control characters only; everything else, astral-plane characters included, as is).
 * Stateless and thread-safe.
 */
public final class JsonDocumentCopy {

    private JsonDocumentCopy() {
    }

    /**
     * Writes the JSON document {@code text} as the next value of {@code out}: parsed and re-written compactly,
     * object keys in the order of the text (for {@code jsonb} that is Postgres's normalized order; duplicate keys
     * of {@code json} are kept), numbers exactly as their text ({@code 1.0} stays {@code 1.0}).
     *
     * @throws UnencodableValueException if the text is not exactly one JSON value
     */
    public static void copy(String text, JsonGenerator out) throws IOException {
        try (JsonParser parser = CanonicalJsonFactory.DOCUMENT_FACTORY.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new UnencodableValueException("empty JSON text");
            }
            int depth = 0;
            do {
                switch (token) {
                    case START_OBJECT -> {
                        out.writeStartObject();
                        depth++;
                    }
                    case END_OBJECT -> {
                        out.writeEndObject();
                        depth--;
                    }
                    case START_ARRAY -> {
                        out.writeStartArray();
                        depth++;
                    }
                    case END_ARRAY -> {
                        out.writeEndArray();
                        depth--;
                    }
                    case FIELD_NAME -> out.writeFieldName(parser.currentName());
                    case VALUE_STRING -> out.writeString(parser.getTextCharacters(), parser.getTextOffset(),
                        parser.getTextLength());
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> out.writeNumber(parser.getText());
                    case VALUE_TRUE -> out.writeBoolean(true);
                    case VALUE_FALSE -> out.writeBoolean(false);
                    case VALUE_NULL -> out.writeNull();
                    default -> throw new UnencodableValueException("unexpected JSON token " + token);
                }
                token = depth == 0 ? null : parser.nextToken();
            } while (token != null);
            if (parser.nextToken() != null) {
                throw new UnencodableValueException("trailing content after the JSON value");
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UnencodableValueException("malformed JSON: " + e.getOriginalMessage(), e);
        }
    }
}
