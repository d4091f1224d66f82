package io.tributary.snapshot.internals;

/** A transient failure lasted past the retry deadline; the message says what, for how long and why. */
public final class RetriesExhaustedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RetriesExhaustedException(String message, Throwable cause) {
        super(message, cause);
    }
}
