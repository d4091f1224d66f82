package io.tributary.api.http;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The source database's current WAL position, which a write checkpoint records: every write a client committed
 * before asking lies at or before it. One connection, opened on first use, replaced after a failure.
 *
 * <p>Thread-safe: calls are serialized.
 */
final class CurrentWalPosition implements AutoCloseable {

    private final LazyConnection connection;

    CurrentWalPosition(PgEndpoint source) {
        this.connection = new LazyConnection(source);
    }

    /** {@code pg_current_wal_lsn()} of the source, as LSN text. */
    synchronized String current() throws SQLException {
        try (Statement statement = connection.get().createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException | RuntimeException e) {
            connection.discard();
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        connection.close();
    }
}
