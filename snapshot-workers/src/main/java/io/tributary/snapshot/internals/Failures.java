package io.tributary.snapshot.internals;

import io.tributary.postgres.SqlErrors;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.source.encoding.EncodingException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Classifies the failure of a chunk attempt. SQL errors of the source go through {@link SqlErrors} (the one
 * place that decides retriable vs fatal SQLSTATEs); a fatal one is the table's problem (missing table, permission,
 * bad data). Storage operations are retried by {@code io.tributary.postgres.Retrier}, which classifies with
 * {@link SqlErrors} alone. Stateless and thread-safe.
 */
public final class Failures {

    private Failures() {
    }

    /** The kind of a failure while reading a chunk from the source or publishing it. */
    public static FailureKind classifyRead(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof SQLException sql) {
            return SqlErrors.classify(sql).isRetriable() ? FailureKind.RETRIABLE : FailureKind.TABLE;
        }
        if (t instanceof SourceSchemaException || t instanceof EncodingException
            || t instanceof RecordTooLargeException || t instanceof IllegalArgumentException) {
            return FailureKind.TABLE;
        }
        if (t instanceof RetriableException) {
            return FailureKind.RETRIABLE;
        }
        return FailureKind.WORKER;
    }

    /** The cause of a {@link CompletionException} or {@link ExecutionException}, else the failure itself. */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** A one-line description for logs and the window's error: class and message. */
    public static String describe(Throwable failure) {
        Throwable t = unwrap(failure);
        String message = t.getMessage();
        return message == null ? t.getClass().getSimpleName() : message;
    }
}
