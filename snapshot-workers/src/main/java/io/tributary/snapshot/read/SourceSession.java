package io.tributary.snapshot.read;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.snapshot.ReadSettings;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.topics.messages.TableId;
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

    private final LazyConnection connection;

    /** A session to {@code endpoint}; {@code applicationName} shows in {@code pg_stat_activity}. */
    public SourceSession(PgEndpoint endpoint, ReadSettings settings, String applicationName) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(applicationName, "applicationName");
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("socketTimeout", Long.toString(settings.socketTimeout().toSeconds()));
        properties.setProperty("adaptiveFetch", "true");
        properties.setProperty("adaptiveFetchMinimum", "1");
        properties.setProperty("adaptiveFetchMaximum", Integer.toString(settings.fetchRows()));
        properties.setProperty("maxResultBuffer", Long.toString(settings.fetchBufferBytes()));
        this.connection = new LazyConnection(endpoint, properties, c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET idle_in_transaction_session_timeout = 0");
                s.execute("SET statement_timeout = " + settings.statementTimeout().toMillis());
            }
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
        });
    }

    /** The open connection, connecting first if there is none. */
    public Connection connection() throws SQLException {
        return connection.get();
    }

    /**
     * Describes {@code table} ({@link SourceCatalog#describe}) in the current transaction, its catalog queries
     * planned generically: they run once per chunk with the same text on this connection, so once pgjdbc prepares
     * them on the server they are planned once per connection, not once per chunk (with one small chunk per table,
     * planning the four catalog queries cost the source more than the rest of the chunk's read). The session's plan
     * mode is back to the default before this returns, so the chunk's own range query is planned as always; if it
     * throws, the caller's rollback of the transaction undoes the setting.
     *
     * @throws SQLException                                    if the source failed
     * @throws io.tributary.source.catalog.SourceSchemaException if the table cannot be replicated as it is
     */
    public TableSchema describe(TableId table) throws SQLException {
        Connection c = connection.get();
        try (Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_generic_plan");
            TableSchema schema = new SourceCatalog(c).describe(table);
            s.execute("RESET plan_cache_mode");
            return schema;
        }
    }

    /** Ends the current transaction, if any, without effect (reads only). */
    public void rollbackQuietly() {
        connection.rollbackQuietly();
    }

    /** Closes the connection after a failure, so the next use reconnects. */
    public void discard() {
        connection.discard();
    }

    @Override
    public void close() {
        connection.close();
    }
}
