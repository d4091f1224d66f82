package io.tributary.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * A database's current WAL write position, {@code pg_current_wal_lsn()}, read over one kept connection: opened on
 * first use, replaced after a failure. Every transaction that committed before a call lies at or before the
 * position it returns (what a write checkpoint records, and what replication lag is measured against). The
 * insert position ({@code pg_current_wal_insert_lsn()}) a snapshot's high watermark needs is another idea.
 *
 * <p>Thread-safe: calls are serialized.
 */
public final class CurrentWalPosition implements AutoCloseable {

    private final LazyConnection connection;

    /** Positions of {@code database}, over a connection with the driver's defaults. */
    public CurrentWalPosition(PgEndpoint database) {
        this(database, new Properties());
    }

    /** Positions of {@code database}, over a connection with the driver properties {@code properties}. */
    public CurrentWalPosition(PgEndpoint database, Properties properties) {
        this.connection = new LazyConnection(database, properties, opened -> { });
    }

    /**
     * {@code pg_current_wal_lsn()} now, as Postgres prints an LSN ({@code 16/B374D848}).
     *
     * @throws SQLException if the database cannot be reached or answer; the next call connects again
     */
    public synchronized String current() throws SQLException {
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
