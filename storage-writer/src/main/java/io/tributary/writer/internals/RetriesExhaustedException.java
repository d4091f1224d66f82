package io.tributary.writer.internals;

/** A retriable failure lasted past its retry deadline and is now fatal; the cause is the last failure. */
public final class RetriesExhaustedException extends Exception {

    private static final long serialVersionUID = 1L;

    public RetriesExhaustedException(String message, Throwable cause) {
        super(message, cause);
    }
}
