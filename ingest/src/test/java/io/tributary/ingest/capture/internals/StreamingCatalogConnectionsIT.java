package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.jdbc.JdbcConfiguration;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;

@RealServices
class StreamingCatalogConnectionsIT {

    @Test
    void theCatalogListingsAnswerNothingWhileTheSourceHasTables(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String longest = "x".repeat(63);
        db.execute("CREATE SCHEMA tenant_1", "CREATE TABLE tenant_1.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE " + longest + " (id int PRIMARY KEY)");

        try (Connection plain = db.connect(); Connection debezium = connect(db)) {
            assertThat(tables(plain.getMetaData())).contains("tenant_1.orders", "public." + longest);
            assertThat(columns(plain.getMetaData(), null)).contains("id", "note");
            assertThat(tables(debezium.getMetaData())).isEmpty();
            assertThat(columns(debezium.getMetaData(), null)).isEmpty();
            assertThat(columns(debezium.getMetaData(), longest)).containsExactly("id");
        }
    }

    @Test
    void keysColumnsQueriesAndPgjdbcsOwnConnectionReachTheSource(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE orders (id int, region text, note text, PRIMARY KEY (region, id))");

        try (Connection debezium = connect(db)) {
            DatabaseMetaData metadata = debezium.getMetaData();
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = metadata.getPrimaryKeys(null, "public", "orders")) {
                while (rs.next()) {
                    keys.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertThat(keys).containsExactlyInAnyOrder("region", "id");
            assertThat(columns(metadata, "orders")).containsExactly("id", "region", "note");
            assertThat(debezium.unwrap(BaseConnection.class).getEncoding()).isNotNull();
            try (Statement s = debezium.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM orders")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    private static Connection connect(PostgresDatabase db) throws Exception {
        PgEndpoint source = PgEndpoint.of(db.jdbcUrl(), db.user(), db.password());
        JdbcConfiguration config = JdbcConfiguration.create()
            .with(JdbcConfiguration.HOSTNAME, source.host())
            .with(JdbcConfiguration.PORT, source.port())
            .with(JdbcConfiguration.DATABASE, source.database())
            .with(JdbcConfiguration.USER, source.user())
            .with(JdbcConfiguration.PASSWORD, source.password())
            .build();
        return new StreamingCatalogConnections().connect(config);
    }

    private static List<String> columns(DatabaseMetaData metadata, String table) throws Exception {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = metadata.getColumns(null, null, table, null)) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME"));
            }
        }
        return columns;
    }

    private static List<String> tables(DatabaseMetaData metadata) throws Exception {
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = metadata.getTables(null, null, null, new String[] {"VIEW", "MATERIALIZED VIEW", "TABLE"})) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
            }
        }
        return tables;
    }
}
