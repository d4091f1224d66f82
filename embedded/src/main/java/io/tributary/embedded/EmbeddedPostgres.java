package io.tributary.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL 17 server process (zonky embedded binaries) configured for logical replication:
 * {@code wal_level=logical}, replication slots and WAL senders available, pgoutput built in.
 *
 * <p>It listens on a free loopback port; the superuser is {@code postgres} with trust authentication. Used by
 * the launcher's embedded default (as source and storage) and by tests when no Docker engine and no external
 * database is available. Thread-safe; {@link #close()} stops the server.
 */
public final class EmbeddedPostgres implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
    private static final String SUPERUSER = "postgres";

    private final io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;

    private EmbeddedPostgres(io.zonky.test.db.postgres.embedded.EmbeddedPostgres server) {
        this.server = server;
    }

    /** Starts a server whose data directory is temporary and deleted on close. */
    public static EmbeddedPostgres start() {
        return start(Optional.empty());
    }

    /**
     * Starts a server.
     *
     * @param dataDirectory where the cluster lives; reused (not wiped) when it already holds one. Empty: a
     *     temporary directory deleted on close.
     * @throws EmbeddedServiceException if the server does not start
     */
    public static EmbeddedPostgres start(Optional<Path> dataDirectory) {
        return start(dataDirectory, Map.of());
    }

    /**
     * Starts a server with {@code serverConfig} set on top of the defaults (a setting named in both takes the
     * given value), e.g. {@code shared_preload_libraries=pg_stat_statements} to measure statements.
     *
     * @param dataDirectory where the cluster lives; reused (not wiped) when it already holds one. Empty: a
     *     temporary directory deleted on close.
     * @throws EmbeddedServiceException if the server does not start
     */
    public static EmbeddedPostgres start(Optional<Path> dataDirectory, Map<String, String> serverConfig) {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(serverConfig, "serverConfig");
        long started = System.nanoTime();
        try {
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres.Builder builder =
                io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_replication_slots", "64")
                    .setServerConfig("max_wal_senders", "64")
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("shared_buffers", "256MB")
                    .setServerConfig("max_wal_size", "4GB")
                    .setServerConfig("listen_addresses", "localhost")
                    // zonky turns it off; logical decoding only reads flushed WAL, so commits would reach
                    // replication up to wal_writer_delay late.
                    .setServerConfig("synchronous_commit", "on");
            serverConfig.forEach(builder::setServerConfig);
            if (dataDirectory.isPresent()) {
                builder.setDataDirectory(dataDirectory.get()).setCleanDataDirectory(false);
            }
            EmbeddedPostgres postgres = new EmbeddedPostgres(builder.start());
            LOG.info("Embedded Postgres ready on port {} in {} ms", postgres.port(),
                (System.nanoTime() - started) / 1_000_000);
            return postgres;
        } catch (IOException e) {
            throw new EmbeddedServiceException("Embedded Postgres did not start: " + e.getMessage(), e);
        }
    }

    /** The loopback port the server listens on. */
    public int port() {
        return server.getPort();
    }

    /** The superuser's name (trust authentication, no password). */
    public String superuser() {
        return SUPERUSER;
    }

    /** A JDBC URL for {@code database} on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + port() + "/" + database;
    }

    /** Creates {@code database} if it does not exist yet; the name must be a plain lower-case identifier. */
    public void createDatabase(String database) {
        if (!database.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("Database name must be a lower-case identifier: " + database);
        }
        try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres"), SUPERUSER, "");
             Statement statement = connection.createStatement()) {
            boolean exists;
            try (var rs = statement.executeQuery(
                "SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
                exists = rs.next();
            }
            if (!exists) {
                statement.execute("CREATE DATABASE " + database);
            }
        } catch (SQLException e) {
            throw new EmbeddedServiceException("Could not create database " + database + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new EmbeddedServiceException("Embedded Postgres did not stop cleanly: " + e.getMessage(), e);
        }
    }
}
