package io.tributary.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Postgres server the tests may create databases on, addressed by the JDBC URL of one of its databases and a
 * user allowed to {@code CREATE DATABASE} and to replicate.
 */
public record PostgresServer(String adminUrl, String user, String password) {

    private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]*)(\\?.*)?$");

    public PostgresServer {
        Objects.requireNonNull(adminUrl, "adminUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!URL.matcher(adminUrl).matches()) {
            throw new IllegalArgumentException("Not a jdbc:postgresql://host:port/database URL: " + adminUrl);
        }
    }

    static PostgresServer external(String adminUrl, String user, String password) {
        return new PostgresServer(adminUrl, user, password);
    }

    /** The JDBC URL of {@code database} on this server, keeping the admin URL's parameters. */
    public String jdbcUrl(String database) {
        Matcher m = URL.matcher(adminUrl);
        if (!m.matches()) {
            throw new IllegalStateException(adminUrl);
        }
        return m.group(1) + database + (m.group(3) == null ? "" : m.group(3));
    }

    /** Creates an empty database and returns its coordinates. */
    public PostgresDatabase createDatabase(String name) {
        try (Connection c = DriverManager.getConnection(adminUrl, user, password);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create test database " + name + " at " + adminUrl, e);
        }
        return new PostgresDatabase(name, jdbcUrl(name), user, password);
    }

    void requireLogicalReplication() {
        try (Connection c = DriverManager.getConnection(adminUrl, user, password);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW wal_level")) {
            rs.next();
            if (!"logical".equals(rs.getString(1))) {
                throw new IllegalStateException("Test Postgres at " + adminUrl + " has wal_level=" + rs.getString(1)
                    + "; set wal_level=logical (postgresql.conf) and restart it");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Test Postgres at " + adminUrl + " is not reachable: " + e.getMessage(), e);
        }
    }
}
