package io.tributary.postgres;

/**
 * A retriable failure lasted past its retry deadline and is now final. The message says what failed, for how long
 * and why; the cause is the last failure.
 */
public final class RetriesExhaustedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RetriesExhaustedException(String message, Throwable cause) {
        super(message, cause);
    }
}
