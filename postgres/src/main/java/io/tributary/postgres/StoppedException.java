package io.tributary.postgres;

/**
 * An operation was abandoned because shutdown was requested (or its thread was interrupted, whose flag is then
 * set); not a failure of the operation. The cause, if any, is the failure that was about to be retried.
 */
public final class StoppedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoppedException(String message) {
        super(message);
    }

    public StoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
