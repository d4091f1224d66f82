package io.tributary.snapshot.read;

import io.tributary.snapshot.DatabaseEndpoint;
import io.tributary.snapshot.ReadSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Properties;

/**
 * One worker loop's connection to the source, opened on first use and replaced after a failure. Configured for
 * chunk reads: auto-commit off (so result sets stream with a cursor), REPEATABLE READ READ ONLY, adaptive fetch
 * sizes within {@link ReadSettings#fetchBufferBytes()}, the configured socket and statement timeouts, and no
 * {@code idle_in_transaction_session_timeout} (a read waiting for Kafka is idle in its transaction on purpose).
 *
 * <p>Not thread-safe: one per worker loop.
 */
public final class SourceSession implements AutoCloseable {

    private final DatabaseEndpoint endpoint;
    private final ReadSettings settings;
    private final String applicationName;
    private Connection connection;

    /** A session to {@code endpoint}; {@code applicationName} shows in {@code pg_stat_activity}. */
    public SourceSession(DatabaseEndpoint endpoint, ReadSettings settings, String applicationName) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.applicationName = Objects.requireNonNull(applicationName, "applicationName");
    }

    /** The open connection, connecting first if there is none. */
    public Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = connect();
        }
        return connection;
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("socketTimeout", Long.toString(settings.socketTimeout().toSeconds()));
        properties.setProperty("adaptiveFetch", "true");
        properties.setProperty("adaptiveFetchMinimum", "1");
        properties.setProperty("adaptiveFetchMaximum", Integer.toString(settings.fetchRows()));
        properties.setProperty("maxResultBuffer", Long.toString(settings.fetchBufferBytes()));
        Connection c = endpoint.connect(properties);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SET idle_in_transaction_session_timeout = 0");
                s.execute("SET statement_timeout = " + settings.statementTimeout().toMillis());
            }
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Ends the current transaction, if any, without effect (reads only). */
    public void rollbackQuietly() {
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
        } catch (SQLException e) {
            discard();
        }
    }

    /** Closes the connection after a failure, so the next use reconnects. */
    public void discard() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // The connection is broken already; a new one replaces it.
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        discard();
    }
}
