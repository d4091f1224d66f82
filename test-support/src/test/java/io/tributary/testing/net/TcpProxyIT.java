package io.tributary.testing.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@RealServices
class TcpProxyIT {

    private static final Pattern HOST_PORT = Pattern.compile("^jdbc:postgresql://([^:/]+):(\\d+)/.*$");

    @Test
    void aJdbcRoundTripTakesAtLeastTwiceTheLatency(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (TcpProxy proxy = proxyTo(db); Connection c = connectThrough(proxy, db)) {
            proxy.setLatency(Duration.ofMillis(100));
            long start = System.nanoTime();
            assertThat(selectOne(c)).isEqualTo(1);
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(200L);
        }
    }

    @Test
    void droppedConnectionsFailAndNewOnesWork(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (TcpProxy proxy = proxyTo(db); Connection open = connectThrough(proxy, db)) {
            assertThat(selectOne(open)).isEqualTo(1);
            proxy.dropConnections();
            assertThatThrownBy(() -> selectOne(open)).isInstanceOf(SQLException.class);
            try (Connection fresh = connectThrough(proxy, db)) {
                assertThat(selectOne(fresh)).isEqualTo(1);
            }
            assertThat(proxy.bytesForwarded()).isPositive();
        }
    }

    @Test
    void aRefusingProxyLooksLikeADownServer(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (TcpProxy proxy = proxyTo(db)) {
            proxy.setRefusing(true);
            assertThatThrownBy(() -> connectThrough(proxy, db).close()).isInstanceOf(SQLException.class);
            proxy.setRefusing(false);
            try (Connection c = connectThrough(proxy, db)) {
                assertThat(selectOne(c)).isEqualTo(1);
            }
        }
    }

    private static TcpProxy proxyTo(PostgresDatabase db) {
        Matcher m = HOST_PORT.matcher(db.jdbcUrl());
        assertThat(m.matches()).as("host and port in %s", db.jdbcUrl()).isTrue();
        return TcpProxy.start(m.group(1), Integer.parseInt(m.group(2)));
    }

    private static Connection connectThrough(TcpProxy proxy, PostgresDatabase db) throws SQLException {
        String url = "jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/" + db.name() + "?connectTimeout=5";
        return DriverManager.getConnection(url, db.user(), db.password());
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
