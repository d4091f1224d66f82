package io.tributary.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * One connection to a {@link PgEndpoint}, opened on first use, prepared by a {@link Setup} (session settings,
 * transaction mode), and replaced after it broke: {@link #discard()} after a failure, or
 * {@link #discardIfBroken()} to keep it if it still answers. Rolling back and closing never throw.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class LazyConnection implements AutoCloseable {

    /** Prepares a newly opened connection; if it throws, the connection is closed and the failure thrown. */
    @FunctionalInterface
    public interface Setup {
        /** Applies the settings to {@code connection}. */
        void apply(Connection connection) throws SQLException;
    }

    private static final int VALID_CHECK_SECONDS = 5;

    private final PgEndpoint endpoint;
    private final Properties properties;
    private final Setup setup;
    private Connection connection;

    /** Connections to {@code endpoint} with the driver's defaults (auto-commit). */
    public LazyConnection(PgEndpoint endpoint) {
        this(endpoint, new Properties(), connection -> { });
    }

    /**
     * Connections to {@code endpoint} with the driver properties {@code properties} (copied), each prepared by
     * {@code setup} once opened.
     */
    public LazyConnection(PgEndpoint endpoint, Properties properties, Setup setup) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.properties = new Properties();
        this.properties.putAll(Objects.requireNonNull(properties, "properties"));
        this.setup = Objects.requireNonNull(setup, "setup");
    }

    /** The open connection, opening (and preparing) one if there is none or it was closed. */
    public Connection get() throws SQLException {
        if (connection == null || connection.isClosed()) {
            discard();
            connection = open();
        }
        return connection;
    }

    private Connection open() throws SQLException {
        Connection opened = endpoint.connect(properties);
        try {
            setup.apply(opened);
            return opened;
        } catch (SQLException | RuntimeException e) {
            try {
                opened.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Ends the current transaction of a connection in manual-commit mode, if one is open, without effect; a
     * connection whose rollback fails is discarded. Never opens a connection.
     */
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

    /** Drops the connection if it no longer answers within 5 seconds, so the next {@link #get()} opens one. */
    public void discardIfBroken() {
        if (connection == null) {
            return;
        }
        boolean valid;
        try {
            valid = connection.isValid(VALID_CHECK_SECONDS);
        } catch (SQLException e) {
            valid = false;
        }
        if (!valid) {
            discard();
        }
    }

    /** Closes the connection (after a failure, it may be broken), so the next {@link #get()} opens a new one. */
    public void discard() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // The connection is being replaced; a broken one may fail to close, there is nothing to release.
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        discard();
    }
}
