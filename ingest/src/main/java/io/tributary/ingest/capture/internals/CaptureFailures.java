package io.tributary.ingest.capture.internals;

import io.tributary.ingest.capture.CaptureSetupException;
import io.tributary.ingest.capture.KafkaPermissionException;
import io.tributary.postgres.SqlErrors;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.source.encoding.EncodingException;
import io.tributary.topics.provision.TopicMismatchException;
import java.sql.SQLException;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * The one place that decides what a capture failure means: another process reads the slot (stand by), a setup or
 * data problem someone must fix (stop; a change too large for Kafka is one: it would fail
 * again on every restart), a SQL failure as {@link SqlErrors} classifies it (except "replication slot already
 * exists": Debezium creates the slot when reading it failed, e.g. on a dropped connection, so a restart finds it),
 * a permission Kafka's authorizer refused (on the transactional id, a topic, the cluster: stop, naming it), or anything
 * else (Kafka, connection loss without a SQLSTATE: restart the engine after a backoff). Stateless.
 */
public final class CaptureFailures {

    /** What to do about a failure. */
    public enum Verdict {
        /** The slot is read by another process: wait as a standby. */
        SLOT_IN_USE,
        /** Someone must fix the source, a table or the configuration. */
        FATAL,
        /** Transient: restart after a backoff. */
        RETRIABLE
    }

    private static final Pattern SLOT_ACTIVE = Pattern.compile("replication slot \"[^\"]*\" is active for PID (\\d+)");
    /** Debezium creates the slot when reading its info failed, e.g. because the connection dropped. */
    private static final Pattern SLOT_EXISTS = Pattern.compile("replication slot \"[^\"]*\" already exists");
    private static final String DUPLICATE_OBJECT = "42710";

    private CaptureFailures() {
    }

    /** Classifies {@code failure} by walking its cause chain. */
    public static Verdict classify(Throwable failure) {
        if (slotHolder(failure).isPresent()) {
            return Verdict.SLOT_IN_USE;
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CaptureSetupException || t instanceof SourceSchemaException
                || t instanceof EncodingException || t instanceof TopicMismatchException
                || t instanceof RecordTooLargeException || t instanceof AuthorizationException) {
                return Verdict.FATAL;
            }
            if (t instanceof SQLException sql && DUPLICATE_OBJECT.equals(sql.getSQLState()) && sql.getMessage() != null
                && SLOT_EXISTS.matcher(sql.getMessage()).find()) {
                return Verdict.RETRIABLE;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null && !sql.getSQLState().isEmpty()) {
                return SqlErrors.classify(sql).isRetriable() ? Verdict.RETRIABLE : Verdict.FATAL;
            }
        }
        return Verdict.RETRIABLE;
    }

    /**
     * {@code failure} as it is reported: a refused transactional id becomes a {@link KafkaPermissionException}
     * naming {@code transactionalId} and the ACL to grant; anything else is itself.
     */
    public static Throwable reported(Throwable failure, String transactionalId) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KafkaPermissionException) {
                return failure;
            }
            if (t instanceof TransactionalIdAuthorizationException refused) {
                return new KafkaPermissionException(transactionalId, refused);
            }
        }
        return failure;
    }

    /** The process id holding the slot, if {@code failure} says the slot is active for another process. */
    public static OptionalInt slotHolder(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null) {
                Matcher m = SLOT_ACTIVE.matcher(t.getMessage());
                if (m.find()) {
                    return OptionalInt.of(Integer.parseInt(m.group(1)));
                }
            }
        }
        return OptionalInt.empty();
    }
}
