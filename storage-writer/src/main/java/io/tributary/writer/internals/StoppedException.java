package io.tributary.writer.internals;

/** An operation was abandoned because shutdown was requested; not a failure of the writer. */
public final class StoppedException extends Exception {

    private static final long serialVersionUID = 1L;

    public StoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
