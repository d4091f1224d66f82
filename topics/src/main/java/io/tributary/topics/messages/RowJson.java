package io.tributary.topics.messages;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One source row as the canonical JSON object text produced by the source module (column name to value). The
 * topics contract never re-formats it: codecs write this text verbatim and read back the exact original bytes, so
 * a row is byte-for-byte identical after any number of hops (docs/design.md invariant 5). A row read from a topic is
 * kept as its bytes ({@link #unsafeUtf8()}) and decoded to text only if asked for ({@link #json()}).
 *
 * <p>Creating a row checks its shape cheaply (non-empty, starts with {@code '{'} and ends with {@code '}'}); it
 * does not parse it. Producers must only pass canonical, valid JSON.
 */
public final class RowJson extends Utf8Json {

    private RowJson(String json, byte[] utf8) {
        super(json, utf8);
    }

    /**
     * The row whose canonical JSON object text is {@code json}.
     *
     * @throws IllegalArgumentException if the text is not shaped as an object
     */
    public RowJson(String json) {
        this(checked(json), null);
    }

    /** The row whose canonical JSON object text is {@code json}. */
    public static RowJson of(String json) {
        return new RowJson(json);
    }

    /**
     * The row whose canonical JSON object text, in UTF-8, is {@code utf8}; the array is taken over, not copied, and
     * must not be changed afterwards.
     *
     * @throws IllegalArgumentException if the bytes are not shaped as an object
     */
    public static RowJson ofUtf8(byte[] utf8) {
        Objects.requireNonNull(utf8, "utf8");
        if (utf8.length < 2 || utf8[0] != '{' || utf8[utf8.length - 1] != '}') {
            throw new IllegalArgumentException(shapeError(new String(utf8, StandardCharsets.UTF_8)));
        }
        return new RowJson(null, utf8);
    }

    @Override
    String what() {
        return "row";
    }

    private static String checked(String json) {
        Objects.requireNonNull(json, "json");
        if (json.length() < 2 || json.charAt(0) != '{' || json.charAt(json.length() - 1) != '}') {
            throw new IllegalArgumentException(shapeError(json));
        }
        return json;
    }

    private static String shapeError(String json) {
        return "A row must be a JSON object text starting with '{' and ending with '}', got: "
            + Abbreviate.text(json);
    }
}
