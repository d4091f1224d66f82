package io.tributary.snapshot.read;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.snapshot.ReadSettings;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableDescription;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Map;
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
     * Describes {@code tables} ({@link SourceCatalog#describeAll}: four catalog queries whatever their number) in
     * the current transaction, the catalog queries planned generically: they run with the same text on this
     * connection for every read, so once pgjdbc prepares them on the server they are planned once per connection,
     * not once per read (with one small chunk per table, planning the catalog queries cost the source more than the
     * rest of the chunk's read). The session's plan mode is back to the default before this returns, so the
     * chunks' own range queries are planned as always; if it throws, the caller's rollback of the transaction undoes
     * the setting.
     *
     * @return per table, its schema or why it cannot be replicated as it is, in the order of {@code tables}
     * @throws SQLException if the source failed
     */
    public Map<TableId, TableDescription> describeAll(Collection<TableId> tables) throws SQLException {
        Connection c = connection.get();
        try (Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_generic_plan");
            Map<TableId, TableDescription> described = new SourceCatalog(c).describeAll(tables);
            s.execute("RESET plan_cache_mode");
            return described;
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
