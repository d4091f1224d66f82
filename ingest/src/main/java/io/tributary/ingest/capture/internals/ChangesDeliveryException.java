package io.tributary.ingest.capture.internals;

/** Kafka did not acknowledge a record of {@code changes}; the batch's positions are not committed. Retriable. */
public final class ChangesDeliveryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChangesDeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
