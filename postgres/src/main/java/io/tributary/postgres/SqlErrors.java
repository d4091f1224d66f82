package io.tributary.postgres;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Objects;

/**
 * The one place that decides whether a failed operation against Postgres (source or storage) is worth retrying.
 *
 * <p>Walking the cause chain, the first decisive element wins:
 * <ul>
 *   <li>an {@link SQLException} with a SQLSTATE, decided by {@link #classifyState(String)}:
 *     <ul>
 *       <li>retriable: class {@code 08} (connection exception), {@code 40001} (serialization failure),
 *           {@code 40P01} (deadlock detected), class {@code 53} (insufficient resources: disk full, out of memory,
 *           too many connections), {@code 57P01}/{@code 57P02}/{@code 57P03} (admin shutdown, crash shutdown,
 *           cannot connect now), {@code 55P03} (lock not available);</li>
 *       <li>fatal: class {@code 28} (authentication), class {@code 42} (syntax, undefined table or column,
 *           {@code 42501} insufficient privilege), class {@code 22} (data exception), class {@code 23} (constraint
 *           violation), and every other state, so an unknown failure stops with its message instead of
 *           looping;</li>
 *     </ul></li>
 *   <li>without a SQLSTATE: an {@link SQLRecoverableException}, an {@link SQLTransientException} or an
 *       {@link IOException} (pgjdbc's socket errors: the connection was lost) is retriable;</li>
 *   <li>anything else is fatal.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class SqlErrors {

    private static final int MAX_CAUSES = 32;

    private SqlErrors() {
    }

    /** Classifies {@code failure} (typically an {@link SQLException}); see the class comment for the rules. */
    public static ErrorKind classify(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && !sql.getSQLState().isEmpty()) {
                return classifyState(sql.getSQLState());
            }
            if (t instanceof SQLRecoverableException || t instanceof SQLTransientException
                || t instanceof IOException) {
                return ErrorKind.RETRIABLE;
            }
            t = t.getCause() == t ? null : t.getCause();
        }
        return ErrorKind.FATAL;
    }

    /** Whether {@code failure} is {@link ErrorKind#RETRIABLE}. */
    public static boolean isRetriable(Throwable failure) {
        return classify(failure).isRetriable();
    }

    /** Classifies one five-character SQLSTATE. */
    public static ErrorKind classifyState(String sqlState) {
        Objects.requireNonNull(sqlState, "sqlState");
        if (sqlState.startsWith("08") || sqlState.startsWith("53")) {
            return ErrorKind.RETRIABLE;
        }
        return switch (sqlState) {
            case "40001", "40P01", "55P03", "57P01", "57P02", "57P03" -> ErrorKind.RETRIABLE;
            default -> ErrorKind.FATAL;
        };
    }
}
