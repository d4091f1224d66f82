package io.tributary.topics.messages;

import java.util.Objects;

/**
 * One source row as the canonical JSON object text produced by the source module (column name to value). The
 * topics contract never re-formats it: codecs write this text verbatim and read back the exact original bytes, so
 * a row is byte-for-byte identical after any number of hops (DESIGN.md invariant 5).
 *
 * <p>The constructor checks the shape cheaply (non-empty, starts with {@code '{'} and ends with {@code '}'}); it
 * does not parse the text. Producers must only pass canonical, valid JSON.
 *
 * @param json the JSON object text
 */
public record RowJson(String json) {

    public RowJson {
        Objects.requireNonNull(json, "json");
        if (json.length() < 2 || json.charAt(0) != '{' || json.charAt(json.length() - 1) != '}') {
            throw new IllegalArgumentException("A row must be a JSON object text starting with '{' and ending"
                + " with '}', got: " + Abbreviate.text(json));
        }
    }

    /** The row whose canonical JSON object text is {@code json}. */
    public static RowJson of(String json) {
        return new RowJson(json);
    }

    @Override
    public String toString() {
        return json;
    }
}
