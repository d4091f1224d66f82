package io.tributary.snapshot.read;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.KeyValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Turns a chunk bound (canonical key JSON array, e.g. {@code ["tenant",42]}) back into the text of each key value,
 * which a range query casts to the column's type ({@code ?::integer}). The canonical forms of the key types the
 * planner splits on (integers, numeric, floats, text types, uuid, enums, dates and times, bytea, bool) are all
 * valid Postgres input text. Read with the canonical limits ({@link CanonicalJsonFactory}: a {@code numeric} key
 * keeps every digit). Stateless and thread-safe.
 */
public final class KeyBounds {

    private KeyBounds() {
    }

    /**
     * The value texts of {@code key}, in key order; {@code null} for a JSON null.
     *
     * @throws IllegalArgumentException if {@code key} is not a flat JSON array of scalars
     */
    public static List<String> texts(KeyValues key) {
        List<String> values = new ArrayList<>();
        try (JsonParser parser = CanonicalJsonFactory.FACTORY.createParser(key.json())) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw notABound(key, "not an array");
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    throw notABound(key, "unterminated array");
                }
                switch (token) {
                    case VALUE_NULL:
                        values.add(null);
                        break;
                    case VALUE_STRING:
                    case VALUE_NUMBER_INT:
                    case VALUE_NUMBER_FLOAT:
                    case VALUE_TRUE:
                    case VALUE_FALSE:
                        values.add(parser.getText());
                        break;
                    default:
                        throw notABound(key, "nested " + token + " (keys with array or JSON columns are never split)");
                }
            }
            if (parser.nextToken() != null) {
                throw notABound(key, "trailing content");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Not a chunk bound: " + key.json(), e);
        }
        return Collections.unmodifiableList(values);
    }

    private static IllegalArgumentException notABound(KeyValues key, String why) {
        return new IllegalArgumentException("Not a chunk bound (" + why + "): " + key.json());
    }
}
