package io.tributary.topics.codec.internals;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The short texts of the binary envelopes (schema, table, chunk and window ids): UTF-8 behind a {@code u16} length.
 * Stateless and thread-safe.
 */
final class ShortTexts {

    /** The most bytes a short text may have. */
    static final int MAX_BYTES = 0xFFFF;

    private ShortTexts() {
    }

    /** The UTF-8 of {@code text} if it has one (no unpaired surrogate) and fits a {@code u16} length. */
    static Optional<byte[]> utf8(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return strictUtf8(text);
            }
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length > MAX_BYTES ? Optional.empty() : Optional.of(bytes);
    }

    /** Writes {@code text} (from {@link #utf8}) behind its length. */
    static void put(ByteBuffer out, byte[] text) {
        out.putShort((short) text.length).put(text);
    }

    private static Optional<byte[]> strictUtf8(String text) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            ByteBuffer encoded = encoder.encode(CharBuffer.wrap(text));
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes.length > MAX_BYTES ? Optional.empty() : Optional.of(bytes);
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
