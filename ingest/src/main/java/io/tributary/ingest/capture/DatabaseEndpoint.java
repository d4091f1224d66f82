package io.tributary.ingest.capture;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;

/**
 * A Postgres database to connect to: a {@code jdbc:postgresql://host[:port]/database[?params]} URL, user and
 * password. {@link #toString()} never shows the password.
 *
 * @param jdbcUrl  the JDBC URL
 * @param user     the user name
 * @param password the password, possibly empty
 */
public record DatabaseEndpoint(String jdbcUrl, String user, String password) {

    public DatabaseEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("Expected a jdbc:postgresql:// URL, got " + jdbcUrl);
        }
    }

    /** The endpoint {@code jdbcUrl} as {@code user} with {@code password}. */
    public static DatabaseEndpoint of(String jdbcUrl, String user, String password) {
        return new DatabaseEndpoint(jdbcUrl, user, password);
    }

    /** A new auto-commit connection; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    @Override
    public String toString() {
        return "DatabaseEndpoint[" + jdbcUrl + " as " + user + "]";
    }
}
