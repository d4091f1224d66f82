package io.tributary.launcher.env;

/** A configured service (Kafka, source or storage Postgres) cannot be reached; the message names it and the fix. */
public final class ServiceUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ServiceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
