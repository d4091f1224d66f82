package io.tributary.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Runs work in one transaction: commits if the work returns, rolls back if it throws. The connection's auto-commit
 * mode is restored afterwards, so a connection in auto-commit mode stays usable as one. Stateless and thread-safe
 * (the connection itself is not: one thread at a time).
 */
public final class Transactions {

    /** Work that runs inside the transaction, on the connection given to {@link #inTransaction}. */
    @FunctionalInterface
    public interface Work<T> {
        /** Does the work; may throw to roll back. */
        T run() throws SQLException;
    }

    private Transactions() {
    }

    /**
     * Runs {@code work} in one transaction on {@code connection} and returns its result.
     *
     * @throws SQLException     if the work, the commit or the rollback failed (the work's failure is rethrown
     *                          unchanged after the rollback)
     * @throws RuntimeException the work's own, unchanged, after the rollback
     */
    public static <T> T inTransaction(Connection connection, Work<T> work) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(work, "work");
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
