package io.tributary.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** One database of the test Postgres server, created for one test. */
public record PostgresDatabase(String name, String jdbcUrl, String user, String password) {

    public PostgresDatabase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** A new connection (auto-commit); the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    /** Runs each statement in its own auto-committed transaction. */
    public void execute(String... statements) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** The first column of every row {@code sql} returns, as text, in the order it returns them. */
    public List<String> column(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
