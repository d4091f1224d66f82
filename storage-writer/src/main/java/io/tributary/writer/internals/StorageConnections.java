package io.tributary.writer.internals;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.util.Properties;

/**
 * The storage connections of the writer: auto-commit off, READ COMMITTED, TCP keep-alive, tagged in
 * {@code pg_stat_activity}. There is deliberately no socket timeout: slow storage is backpressure, not a failure.
 * Stateless and thread-safe; the connections are not (one per thread).
 */
public final class StorageConnections {

    private StorageConnections() {
    }

    /** A connection to {@code endpoint}, opened on first use, tagged {@code applicationName}. */
    public static LazyConnection to(PgEndpoint endpoint, String applicationName) {
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("tcpKeepAlive", "true");
        return new LazyConnection(endpoint, properties, connection -> {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        });
    }
}
