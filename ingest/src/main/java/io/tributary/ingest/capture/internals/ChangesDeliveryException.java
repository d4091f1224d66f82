package io.tributary.ingest.capture.internals;

/**
 * Kafka did not acknowledge a record of {@code changes}, or its transaction did not commit; the transaction is aborted
 * and its positions are not committed. Retriable unless its cause says otherwise (a row too large for Kafka).
 */
public final class ChangesDeliveryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChangesDeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
