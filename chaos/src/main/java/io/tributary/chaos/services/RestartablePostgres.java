package io.tributary.chaos.services;

import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.FreePorts;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A PostgreSQL 17 server (the zonky embedded binaries) configured for logical replication, as embedded's
 * EmbeddedPostgres ({@code wal_level=logical}, slots and WAL senders), that can be stopped (fast shutdown),
 * killed ({@code kill -9} of the postmaster and every backend) and started again on the same port with its data
 * directory kept. Superuser {@code postgres}, trust authentication.
 *
 * <p>{@link #create(Path)} initializes the cluster (through zonky, which also extracts the binaries) and starts
 * it; afterwards this class runs the {@code postgres} binary itself (under {@code unshare -U} when this JVM runs
 * as root, as zonky does), so the postmaster is its child and a kill hits exactly it. {@link #close()} kills the
 * server and keeps the directory (the caller owns it). Thread-safe (methods are synchronized).
 */
public final class RestartablePostgres implements RestartableService {

    private static final String SUPERUSER = "postgres";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Map<String, String> SETTINGS = settings();

    private final Path dataDirectory;
    private final Path log;
    private final Path postgresBinary;
    private final int port;
    private Optional<ServerProcess> process = Optional.empty();

    private RestartablePostgres(Path dataDirectory, Path log, Path postgresBinary, int port) {
        this.dataDirectory = dataDirectory;
        this.log = log;
        this.postgresBinary = postgresBinary;
        this.port = port;
    }

    private static Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("wal_level", "logical");
        settings.put("max_replication_slots", "64");
        settings.put("max_wal_senders", "64");
        settings.put("max_connections", "300");
        settings.put("shared_buffers", "128MB");
        settings.put("max_wal_size", "4GB");
        settings.put("listen_addresses", "127.0.0.1");
        settings.put("synchronous_commit", "on");
        settings.put("timezone", "UTC");
        return Map.copyOf(settings);
    }

    /**
     * Creates a cluster in {@code directory/data} (output in {@code directory/postgres.log}) on a free loopback
     * port and starts it.
     *
     * @throws ServiceException if it does not start and answer within 60 s
     */
    public static RestartablePostgres create(Path directory) {
        Objects.requireNonNull(directory, "directory");
        Path data = directory.toAbsolutePath().resolve("data");
        int port = FreePorts.pick();
        Path binary;
        try {
            Files.createDirectories(data);
            try (io.zonky.test.db.postgres.embedded.EmbeddedPostgres init =
                     io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                         .setDataDirectory(data).setCleanDataDirectory(false).setPort(port)
                         .setPGStartupWait(READY_TIMEOUT).start()) {
                binary = Path.of(postmasterBinary(data));
            }
        } catch (IOException e) {
            throw new ServiceException("Postgres in " + data + ": initdb failed: " + e.getMessage(), e);
        }
        RestartablePostgres postgres = new RestartablePostgres(data, directory.toAbsolutePath()
            .resolve("postgres.log"), binary, port);
        postgres.start();
        return postgres;
    }

    /** The binary zonky started, the first word of {@code postmaster.opts}. */
    private static String postmasterBinary(Path data) throws IOException {
        String opts = Files.readString(data.resolve("postmaster.opts"), StandardCharsets.UTF_8).trim();
        int end = opts.indexOf(' ');
        return end < 0 ? opts : opts.substring(0, end);
    }

    /** The loopback port, the same across restarts. */
    public int port() {
        return port;
    }

    /** The superuser (trust authentication, empty password). */
    public String superuser() {
        return SUPERUSER;
    }

    /** A JDBC URL for {@code database}: {@code jdbc:postgresql://127.0.0.1:<port>/<database>}. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** {@code database} as the superuser. */
    public PgEndpoint endpoint(String database) {
        return PgEndpoint.of(jdbcUrl(database), SUPERUSER, "");
    }

    /**
     * Creates an empty database.
     *
     * @throws IllegalArgumentException if {@code name} is not a plain lower-case identifier
     * @throws ServiceException         if the server refuses
     */
    public PgEndpoint createDatabase(String name) {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("Database name must be a lower-case identifier: " + name);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), SUPERUSER, "");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new ServiceException("Postgres on port " + port + ": CREATE DATABASE " + name + " failed", e);
        }
        return endpoint(name);
    }

    /**
     * Starts the server and waits until it accepts connections (crash recovery is done by then).
     *
     * @throws IllegalStateException if it runs
     * @throws ServiceException      if it does not answer within 60 s (its processes are killed then)
     */
    public synchronized void start() {
        if (isRunning()) {
            throw new IllegalStateException("Postgres on port " + port + " is running");
        }
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(postgresBinary.toString(), "-D", dataDirectory.toString(), "-p",
            Integer.toString(port)));
        SETTINGS.forEach((key, value) -> command.addAll(List.of("-c", key + "=" + value)));
        process = Optional.of(ServerProcess.startAndAwait("postgres", command, log, "Postgres on port " + port,
            READY_TIMEOUT, this::answers));
    }

    /**
     * Stops the server with a fast shutdown ({@code SIGINT}: sessions are ended, a shutdown checkpoint is written)
     * and waits until it is gone; kills it if it takes longer than 60 s. No-op if it is not running.
     */
    public synchronized void stop() {
        process.ifPresent(postmaster -> {
            ServerProcess.run("postgres-stop", List.of("kill", "-INT", Long.toString(postmaster.pid())), log,
                Duration.ofSeconds(10));
            postmaster.awaitExitOrKill(STOP_TIMEOUT, "Postgres on port " + port);
        });
        process = Optional.empty();
    }

    /**
     * {@code kill -9} of the postmaster and all its backends; returns once they are gone. The next start runs
     * crash recovery. No-op if it is not running.
     */
    public synchronized void kill() {
        process.ifPresent(ServerProcess::kill);
        process = Optional.empty();
    }

    /** Whether the postmaster is alive (it may not accept connections yet or any more). */
    public synchronized boolean isRunning() {
        return process.map(ServerProcess::isAlive).orElse(false);
    }

    /** The server's output, of every incarnation. */
    public Path log() {
        return log;
    }

    @Override
    public String toString() {
        return "RestartablePostgres[127.0.0.1:" + port + ", " + dataDirectory + "]";
    }

    private boolean answers() {
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres") + "?connectTimeout=3", SUPERUSER, "");
             Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
