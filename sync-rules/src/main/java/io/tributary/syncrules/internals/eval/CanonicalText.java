package io.tributary.syncrules.internals.eval;

import java.nio.charset.StandardCharsets;

/**
 * A row's JSON text that {@link CanonicalRowScan} found canonical: it is the canonical output of the whole row, so
 * {@code SELECT *} outputs it as it is. Decoded to a {@code String} at most once. Not thread-safe: one per row.
 */
final class CanonicalText {

    private final byte[] utf8;
    private String text;

    /** The text {@code utf8}, whose decoded form {@code text} is, when the caller has it; else {@code null}. */
    CanonicalText(byte[] utf8, String text) {
        this.utf8 = utf8;
        this.text = text;
    }

    /** The text as a string. */
    String text() {
        if (text == null) {
            text = new String(utf8, StandardCharsets.UTF_8);
        }
        return text;
    }
}
