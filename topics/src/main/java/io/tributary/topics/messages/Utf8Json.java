package io.tributary.topics.messages;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A JSON text carried verbatim (a row, a primary key) in two equal forms, its text and its UTF-8 bytes, each made
 * from the other only when first asked for. Texts read from a topic start as bytes and are usually handed on as
 * bytes (a stream worker writing a row to {@code rows}, the storage writer evaluating it), so most are never
 * decoded at all. Equality is equality of the texts. Immutable and thread-safe (each form is computed at most once
 * per thread and always to the same value).
 *
 * <p>Public so that method references such as {@code KeyValues::json} link: the JVM cannot crack a method handle to
 * a public method declared in a package-private class.
 */
public abstract sealed class Utf8Json permits RowJson, KeyValues {

    private volatile String json;
    private volatile byte[] utf8;

    Utf8Json(String json, byte[] utf8) {
        this.json = json;
        this.utf8 = utf8;
    }

    /** What the text is, for error messages ("row", "primary key"). */
    abstract String what();

    /** The JSON text. */
    public final String json() {
        String text = json;
        if (text == null) {
            text = new String(utf8, StandardCharsets.UTF_8);
            json = text;
        }
        return text;
    }

    /**
     * The JSON text in UTF-8: the array itself, shared, which callers must not change.
     *
     * @throws java.io.UncheckedIOException if the text has an unpaired surrogate (it has no UTF-8 form; the JSON
     *                                      generator refuses such a raw value the same way)
     */
    public final byte[] unsafeUtf8() {
        byte[] bytes = utf8;
        if (bytes == null) {
            bytes = Utf8Text.encode(json, what());
            utf8 = bytes;
        }
        return bytes;
    }

    @Override
    public final boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        Utf8Json other = (Utf8Json) o;
        byte[] mine = utf8;
        byte[] theirs = other.utf8;
        return mine != null && theirs != null ? Arrays.equals(mine, theirs) : json().equals(other.json());
    }

    @Override
    public final int hashCode() {
        return json().hashCode();
    }

    @Override
    public final String toString() {
        return json();
    }
}
