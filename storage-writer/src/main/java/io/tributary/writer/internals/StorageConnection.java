package io.tributary.writer.internals;

import io.tributary.writer.StorageEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * One storage connection (auto-commit off, READ COMMITTED), opened lazily and replaced after it breaks. There is
 * deliberately no socket timeout: slow storage is backpressure, not a failure. Not thread-safe: one per thread.
 */
public final class StorageConnection implements AutoCloseable {

    private final StorageEndpoint endpoint;
    private final String applicationName;
    private Connection connection;

    /** A holder for connections to {@code endpoint}, tagged {@code applicationName} in {@code pg_stat_activity}. */
    public StorageConnection(StorageEndpoint endpoint, String applicationName) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.applicationName = Objects.requireNonNull(applicationName, "applicationName");
    }

    /** The open connection, opening one if there is none. */
    public Connection get() throws SQLException {
        if (connection == null) {
            Properties properties = new Properties();
            properties.setProperty("user", endpoint.user());
            properties.setProperty("password", endpoint.password());
            properties.setProperty("ApplicationName", applicationName);
            properties.setProperty("tcpKeepAlive", "true");
            Connection opened = DriverManager.getConnection(endpoint.jdbcUrl(), properties);
            opened.setAutoCommit(false);
            opened.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection = opened;
        }
        return connection;
    }

    /** Drops the connection if it no longer works (after a failure), so the next {@link #get()} opens a new one. */
    public void resetIfBroken() {
        if (connection == null) {
            return;
        }
        boolean valid;
        try {
            valid = connection.isValid(5);
        } catch (SQLException e) {
            valid = false;
        }
        if (!valid) {
            close();
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // The connection is being discarded; there is nothing left to release.
            }
            connection = null;
        }
    }
}
