package io.tributary.bench.pipeline;

import io.tributary.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings Postgres servers to rest before a measurement opens its CPU window: every database vacuumed and analyzed,
 * then a checkpoint. A scenario's writes leave work behind that Postgres does later (autovacuum of the tables it
 * filled, the dirty pages the next checkpoint writes); without this the next scenario's window pays for it, so a
 * direct load right after a snapshot counted the snapshot's vacuum as its own.
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

    private static Connection connect(EmbeddedPostgres server, String database) throws SQLException {
        Connection c = DriverManager.getConnection(server.jdbcUrl(database), server.superuser(), "");
        c.setAutoCommit(true);
        return c;
    }
}
