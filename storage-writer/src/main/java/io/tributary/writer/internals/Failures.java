package io.tributary.writer.internals;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Objects;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The one place where the storage writer decides whether a failure is retriable or fatal.
 *
 * <p>Walking the cause chain, the first decisive element wins:
 * <ul>
 *   <li>an {@link SQLException} with a SQLSTATE: retriable for class {@code 08} (connection exception),
 *       {@code 40001} (serialization failure), {@code 40P01} (deadlock detected) and {@code 57P01}/{@code 57P02}/
 *       {@code 57P03} (admin shutdown, crash shutdown, cannot connect now); fatal for every other state (class
 *       {@code 28} authentication, {@code 42} schema, {@code 22} data, {@code 23} constraint ...), so an unknown
 *       failure stops with its message instead of looping;</li>
 *   <li>an {@link SQLRecoverableException} or {@link SQLTransientException} without state, an {@link IOException}
 *       (pgjdbc's socket errors) or a Kafka {@link RetriableException}: retriable;</li>
 *   <li>anything else: fatal.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class Failures {

    private Failures() {
    }

    /** Classifies {@code failure}; see the class comment. */
    public static FailureKind classify(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && !sql.getSQLState().isEmpty()) {
                return classifyState(sql.getSQLState());
            }
            if (t instanceof SQLRecoverableException || t instanceof SQLTransientException
                || t instanceof IOException || t instanceof RetriableException) {
                return FailureKind.RETRIABLE;
            }
        }
        return FailureKind.FATAL;
    }

    /** Classifies one five-character SQLSTATE. */
    public static FailureKind classifyState(String sqlState) {
        Objects.requireNonNull(sqlState, "sqlState");
        if (sqlState.startsWith("08")) {
            return FailureKind.RETRIABLE;
        }
        return switch (sqlState) {
            case "40001", "40P01", "57P01", "57P02", "57P03" -> FailureKind.RETRIABLE;
            default -> FailureKind.FATAL;
        };
    }

    /** Whether {@code failure} is {@link FailureKind#RETRIABLE}. */
    public static boolean isRetriable(Throwable failure) {
        return classify(failure) == FailureKind.RETRIABLE;
    }
}
