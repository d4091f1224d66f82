package io.tributary.source.sql;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The one place that decides whether a failed SQL operation against the source database is worth retrying.
 *
 * <p>Decided by SQLSTATE (the first state found walking the cause chain):
 * <ul>
 *   <li>retriable: class {@code 08} (connection exception), {@code 40001} (serialization failure), {@code 40P01}
 *       (deadlock detected), class {@code 53} (insufficient resources: disk full, out of memory, too many
 *       connections), {@code 57P01}/{@code 57P02}/{@code 57P03} (admin shutdown, crash shutdown, cannot connect
 *       now), {@code 55P03} (lock not available);</li>
 *   <li>fatal: class {@code 28} (authentication), class {@code 42} (syntax, undefined table or column,
 *       {@code 42501} insufficient privilege), class {@code 22} (data exception), and every other state, so an
 *       unknown failure stops with its message instead of looping;</li>
 *   <li>without any SQLSTATE, a failure caused by an {@link IOException} (pgjdbc's socket errors) is retriable,
 *       anything else fatal.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class SqlErrors {

    private SqlErrors() {
    }

    /** Classifies a failure of a JDBC operation; see the class comment for the rules. */
    public static ErrorKind classify(SQLException exception) {
        Objects.requireNonNull(exception, "exception");
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && !sql.getSQLState().isEmpty()) {
                return classifyState(sql.getSQLState());
            }
            if (t instanceof IOException) {
                return ErrorKind.RETRIABLE;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return ErrorKind.FATAL;
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
