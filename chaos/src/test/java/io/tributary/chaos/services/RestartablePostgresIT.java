package io.tributary.chaos.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestartablePostgresIT {

    @TempDir
    static Path directory;
    private static RestartablePostgres postgres;

    @BeforeAll
    static void startServer() {
        postgres = RestartablePostgres.create(directory);
    }

    @AfterAll
    static void stopServer() {
        postgres.close();
    }

    @Test
    void itReplicatesLogically() throws SQLException {
        assertThat(query(postgres.endpoint("postgres"), "SHOW wal_level")).isEqualTo("logical");
    }

    @Test
    void aStoppedServerRestartsOnTheSamePortWithItsData() throws SQLException {
        PgEndpoint db = postgres.createDatabase("stopped");
        execute(db, "CREATE TABLE t (id int PRIMARY KEY)", "INSERT INTO t SELECT generate_series(1, 100)");
        try (Connection open = connect(db)) {
            postgres.stop();
            assertThat(postgres.isRunning()).isFalse();
            assertThatThrownBy(() -> query(db, "SELECT 1")).isInstanceOf(SQLException.class);
            postgres.start();
            assertThatThrownBy(() -> open.createStatement().execute("SELECT 1")).isInstanceOf(SQLException.class);
        }
        assertThat(query(db, "SELECT count(*) FROM t")).isEqualTo("100");
    }

    @Test
    void aKilledServerRecoversCommittedDataAndReplicationSlots() throws SQLException {
        PgEndpoint db = postgres.createDatabase("killed");
        execute(db, "CREATE TABLE t (id int PRIMARY KEY)", "INSERT INTO t SELECT generate_series(1, 100)",
            "SELECT pg_create_logical_replication_slot('killed_slot', 'pgoutput')",
            "INSERT INTO t SELECT generate_series(101, 150)");
        postgres.kill();
        assertThat(postgres.isRunning()).isFalse();
        postgres.start();
        assertThat(query(db, "SELECT count(*) FROM t")).isEqualTo("150");
        assertThat(query(db, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'killed_slot'"))
            .isEqualTo("1");
        execute(db, "SELECT pg_drop_replication_slot('killed_slot')");
    }

    private static Connection connect(PgEndpoint db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    private static void execute(PgEndpoint db, String... statements) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static String query(PgEndpoint db, String sql) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
