package io.tributary.storage.progress;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs work in one transaction on a connection that is in auto-commit mode on entry (restored afterwards). */
final class Transactions {

    /** Work that needs one transaction. */
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    private Transactions() {
    }

    static <T> T inTransaction(Connection connection, SqlWork<T> work) throws SQLException {
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
