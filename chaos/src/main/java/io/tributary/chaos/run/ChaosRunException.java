package io.tributary.chaos.run;

/** A chaos run could not be carried out (setup, a process that never got ready, an unreadable topic). */
public final class ChaosRunException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChaosRunException(String message, Throwable cause) {
        super(message, cause);
    }
}
