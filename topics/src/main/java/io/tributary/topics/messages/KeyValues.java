package io.tributary.topics.messages;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A row's primary key as the canonical JSON array text produced by the source module: the key column values in
 * key column order (composite keys have several elements; text, uuid and numeric values use the source module's
 * canonical form). Equality is exact text equality, which is what makes record keys deterministic: the same row
 * must always be described by the same text. A key read from a topic is kept as its bytes ({@link #unsafeUtf8()})
 * and decoded to text only if asked for ({@link #json()}).
 *
 * <p>Creating a key checks its shape cheaply (starts with {@code '['}, ends with {@code ']'}, at least one value);
 * it does not parse it.
 */
public final class KeyValues extends Utf8Json {

    private KeyValues(String json, byte[] utf8) {
        super(json, utf8);
    }

    /**
     * The key whose canonical JSON array text is {@code json}.
     *
     * @throws IllegalArgumentException if the text is not shaped as a non-empty array
     */
    public KeyValues(String json) {
        this(checked(json), null);
    }

    /** The key whose canonical JSON array text is {@code json}. */
    public static KeyValues of(String json) {
        return new KeyValues(json);
    }

    /**
     * The key whose canonical JSON array text, in UTF-8, is {@code utf8}; the array is taken over, not copied, and
     * must not be changed afterwards.
     *
     * @throws IllegalArgumentException if the bytes are not shaped as a non-empty array
     */
    public static KeyValues ofUtf8(byte[] utf8) {
        Objects.requireNonNull(utf8, "utf8");
        if (utf8.length < 3 || utf8[0] != '[' || utf8[utf8.length - 1] != ']') {
            throw new IllegalArgumentException(shapeError(new String(utf8, StandardCharsets.UTF_8)));
        }
        return new KeyValues(null, utf8);
    }

    @Override
    String what() {
        return "primary key";
    }

    private static String checked(String json) {
        Objects.requireNonNull(json, "json");
        if (json.length() < 3 || json.charAt(0) != '[' || json.charAt(json.length() - 1) != ']') {
            throw new IllegalArgumentException(shapeError(json));
        }
        return json;
    }

    private static String shapeError(String json) {
        return "A primary key must be a non-empty JSON array text starting with '[' and ending with ']', got: "
            + Abbreviate.text(json);
    }
}
