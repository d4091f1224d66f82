package io.tributary.stream.internals;

/**
 * A merge state store holds bytes this code cannot read: an unknown format version (state written by a newer
 * release) or corrupt data. Fatal for the task: the message names the store and the entry.
 */
public final class StateFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StateFormatException(String message) {
        super(message);
    }

    public StateFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
