package io.tributary.snapshot;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * How to reach a Postgres database.
 *
 * @param jdbcUrl  a {@code jdbc:postgresql:} URL
 * @param user     the user
 * @param password the password (never printed)
 */
public record DatabaseEndpoint(String jdbcUrl, String user, String password) {

    public DatabaseEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("A Postgres endpoint needs a jdbc:postgresql: URL, got " + jdbcUrl);
        }
    }

    /** A new connection with the driver properties {@code extra} on top of user and password. */
    public Connection connect(Properties extra) throws SQLException {
        Properties properties = new Properties();
        properties.putAll(extra);
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    @Override
    public String toString() {
        return "DatabaseEndpoint[" + jdbcUrl + " as " + user + "]";
    }
}
