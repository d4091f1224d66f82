package io.tributary.bench.pipeline;

import io.tributary.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings Postgres servers and the machine's page cache to rest before a measurement opens its CPU window: every
 * database vacuumed and analyzed, a checkpoint, then every dirty page of the machine written out. A scenario's
 * writes leave work behind that is done later (autovacuum of the tables it filled, the dirty pages the next
 * checkpoint writes, the kernel's writeback of its Postgres and Kafka files, which throttles whichever process
 * writes next); without this the next scenario's window pays for it, so a direct load right after a snapshot counted
 * the snapshot's vacuum as its own.
 */
final class QuietServers {

    private QuietServers() {
    }

    /** Vacuums and analyzes every database of {@code server} that takes connections, then checkpoints it. */
    static void settle(EmbeddedPostgres server) throws SQLException {
        List<String> databases = new ArrayList<>();
        String sql = "SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate";
        try (Connection c = connect(server, "postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                databases.add(rs.getString(1));
            }
        }
        for (String database : databases) {
            try (Connection c = connect(server, database); Statement s = c.createStatement()) {
                s.execute("VACUUM (ANALYZE)");
            }
        }
        try (Connection c = connect(server, "postgres"); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT");
        }
    }

    /** Writes every dirty page of the machine to disk ({@code sync}) and waits for it. */
    static void syncPageCache() throws IOException, InterruptedException {
        Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
        String output = new String(sync.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (sync.waitFor() != 0) {
            throw new IOException("sync failed: " + output);
        }
    }

    private static Connection connect(EmbeddedPostgres server, String database) throws SQLException {
        Connection c = DriverManager.getConnection(server.jdbcUrl(database), server.superuser(), "");
        c.setAutoCommit(true);
        return c;
    }
}
