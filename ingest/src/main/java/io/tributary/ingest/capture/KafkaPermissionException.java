package io.tributary.ingest.capture;

/**
 * Kafka refused ingest's producer a permission it needs (the broker's authorizer denied it): no retry can help until
 * an operator grants it. Ingest stops; nothing is lost, since a transaction Kafka did not commit is never read and the
 * next run resumes at the last committed source offset.
 */
public final class KafkaPermissionException extends CaptureSetupException {

    private static final long serialVersionUID = 1L;

    private final String transactionalId;

    /** Kafka refused the transactional id {@code transactionalId} ({@code cause} says how). */
    public KafkaPermissionException(String transactionalId, Throwable cause) {
        super("Kafka refused ingest the use of its transactional id '" + transactionalId + "' (" + cause.getMessage()
            + "). Grant ingest's principal WRITE and DESCRIBE on that transactional id, e.g. kafka-acls.sh"
            + " --bootstrap-server HOST:PORT --add --allow-principal User:INGEST_USER --operation Write"
            + " --operation Describe --transactional-id '" + transactionalId + "', then run ingest again (it resumes"
            + " where the last committed transaction ended; nothing was written)", cause);
        this.transactionalId = transactionalId;
    }

    /** The transactional id Kafka refused. */
    public String transactionalId() {
        return transactionalId;
    }
}
