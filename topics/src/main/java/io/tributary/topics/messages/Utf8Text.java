package io.tributary.topics.messages;

import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/** The exact UTF-8 form of message texts (rows, keys), refusing texts that have none. */
final class Utf8Text {

    private Utf8Text() {
    }

    /**
     * The UTF-8 bytes of {@code text}.
     *
     * @throws UncheckedIOException if {@code text} has an unpaired surrogate ({@code what} names the text)
     */
    static byte[] encode(String text, String what) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int unpaired = utf8.length == text.length() ? replacedAt(utf8, text) : unpairedSurrogateAt(text);
        if (unpaired >= 0) {
            throw new UncheckedIOException("The " + what + " text has an unpaired surrogate at char " + unpaired
                + " and so no UTF-8 form: " + Abbreviate.text(text), new CharacterCodingException());
        }
        return utf8;
    }

    /** Where an ASCII-length encoding replaced an unpaired surrogate of {@code text} by {@code '?'}, or -1. */
    private static int replacedAt(byte[] ascii, String text) {
        for (int i = 0; i < ascii.length; i++) {
            if (ascii[i] == '?' && text.charAt(i) != '?') {
                return i;
            }
        }
        return -1;
    }

    private static int unpairedSurrogateAt(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1));
            if (paired) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
