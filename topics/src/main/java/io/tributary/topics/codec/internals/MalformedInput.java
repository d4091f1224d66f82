package io.tributary.topics.codec.internals;

/**
 * Bytes that are not a valid message or key, with the reason. Internal: the public codecs turn it into a
 * {@code MessageFormatException} that adds the record's position.
 */
public final class MalformedInput extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The input is malformed for {@code reason} (e.g. "unknown version 7 (expected 1)"). */
    public MalformedInput(String reason) {
        super(reason);
    }

    /** The input is malformed for {@code reason}, detected through {@code cause}. */
    public MalformedInput(String reason, Throwable cause) {
        super(reason, cause);
    }
}
