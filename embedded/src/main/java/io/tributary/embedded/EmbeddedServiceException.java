package io.tributary.embedded;

/** An embedded service (Kafka or Postgres) failed to start or stop; the message names which and why. */
public final class EmbeddedServiceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public EmbeddedServiceException(String message, Throwable cause) {
        super(message, cause);
    }

    public EmbeddedServiceException(String message) {
        super(message);
    }
}
