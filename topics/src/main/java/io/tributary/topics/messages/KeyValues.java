package io.tributary.topics.messages;

import java.util.Objects;

/**
 * A row's primary key as the canonical JSON array text produced by the source module: the key column values in
 * key column order (composite keys have several elements; text, uuid and numeric values use the source module's
 * canonical form). Equality is exact text equality, which is what makes record keys deterministic: the same row
 * must always be described by the same text.
 *
 * <p>The constructor checks the shape cheaply (starts with {@code '['}, ends with {@code ']'}, at least one
 * value); it does not parse the text.
 *
 * @param json the JSON array text
 */
public record KeyValues(String json) {

    public KeyValues {
        Objects.requireNonNull(json, "json");
        if (json.length() < 3 || json.charAt(0) != '[' || json.charAt(json.length() - 1) != ']') {
            throw new IllegalArgumentException("A primary key must be a non-empty JSON array text starting with '['"
                + " and ending with ']', got: " + Abbreviate.text(json));
        }
    }

    /** The key whose canonical JSON array text is {@code json}. */
    public static KeyValues of(String json) {
        return new KeyValues(json);
    }

    @Override
    public String toString() {
        return json;
    }
}
