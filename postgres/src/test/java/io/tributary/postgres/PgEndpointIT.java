package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;

@RealServices
class PgEndpointIT {

    @Test
    void extraDriverPropertiesApplyToTheConnection(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Properties extra = new Properties();
        extra.setProperty("ApplicationName", "pg-endpoint-it");

        try (Connection c = endpoint(db).connect(extra); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW application_name")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("pg-endpoint-it");
            assertThat(c.getAutoCommit()).isTrue();
        }
    }

    @Test
    void aRoleThatMayNotLogInIsAFatalFailure(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String role = services.uniqueName("locked");
        db.execute("CREATE ROLE " + role + " NOLOGIN");

        SQLException failure = catchThrowableOfType(SQLException.class,
            () -> PgEndpoint.of(db.jdbcUrl(), role, "").connect().close());

        assertThat(SqlErrors.classify(failure)).isEqualTo(ErrorKind.FATAL);
    }

    @Test
    void aTerminatedSessionIsARetriableFailure(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection victim = endpoint(db).connect(); Connection admin = db.connect()) {
            int pid = pid(victim);
            try (Statement s = admin.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + pid + ")");
            }

            SQLException failure = catchThrowableOfType(SQLException.class, () -> pid(victim));

            assertThat(SqlErrors.classify(failure)).isEqualTo(ErrorKind.RETRIABLE);
        }
    }

    static PgEndpoint endpoint(PostgresDatabase db) {
        return PgEndpoint.of(db.jdbcUrl(), db.user(), db.password());
    }

    static int pid(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
