package io.tributary.ingest.capture.internals;

import io.tributary.ingest.capture.DatabaseEndpoint;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One JDBC connection to the source for the batch handler's catalog reads, opened on first use and reopened after
 * it was closed or broke. Not thread-safe.
 */
final class SourceConnection implements AutoCloseable {

    private static final int VALID_CHECK_SECONDS = 5;

    private final DatabaseEndpoint endpoint;
    private Connection connection;

    SourceConnection(DatabaseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** An open connection. */
    Connection get() throws SQLException {
        if (connection == null || !connection.isValid(VALID_CHECK_SECONDS)) {
            closeQuietly();
            connection = endpoint.connect();
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // A broken connection may fail to close; it is replaced either way.
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
