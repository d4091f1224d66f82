package io.tributary.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Postgres database to connect to: a {@code jdbc:postgresql://host[:port]/database[?params]} URL (one host;
 * IPv6 addresses in brackets), user and password. The URL is checked on construction. {@link #toString()} never
 * shows the password. Immutable and thread-safe.
 *
 * @param jdbcUrl  the JDBC URL
 * @param user     the user name
 * @param password the password, possibly empty
 */
public record PgEndpoint(String jdbcUrl, String user, String password) {

    private static final Pattern URL =
        Pattern.compile("^jdbc:postgresql://(\\[[^\\]]+\\]|[^:/?]+)(?::(\\d+))?/([^?]+)(?:\\?(.*))?$");

    /**
     * Checks the endpoint.
     *
     * @throws IllegalArgumentException if {@code jdbcUrl} is not a {@code jdbc:postgresql://host[:port]/database}
     *                                  URL
     */
    public PgEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        parse(jdbcUrl);
    }

    /** The endpoint {@code jdbcUrl} as {@code user} with {@code password}. */
    public static PgEndpoint of(String jdbcUrl, String user, String password) {
        return new PgEndpoint(jdbcUrl, user, password);
    }

    private static Matcher parse(String jdbcUrl) {
        Matcher m = URL.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("Expected jdbc:postgresql://host[:port]/database[?params], got "
                + jdbcUrl);
        }
        return m;
    }

    /** The host name or address (IPv6 without brackets). */
    public String host() {
        String host = parse(jdbcUrl).group(1);
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port, 5432 if the URL names none. */
    public int port() {
        String port = parse(jdbcUrl).group(2);
        return port == null ? 5432 : Integer.parseInt(port);
    }

    /** The database name. */
    public String database() {
        return parse(jdbcUrl).group(3);
    }

    /** The URL's query parameters, in order (undecoded). */
    public Map<String, String> parameters() {
        Map<String, String> parameters = new LinkedHashMap<>();
        String query = parse(jdbcUrl).group(4);
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    parameters.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        return parameters;
    }

    /** A new connection with the driver's defaults (auto-commit); the caller closes it. */
    public Connection connect() throws SQLException {
        return connect(new Properties());
    }

    /**
     * A new connection with the driver properties {@code extra} (e.g. {@code ApplicationName},
     * {@code socketTimeout}) on top of user and password, which {@code extra} cannot override; the caller closes it.
     */
    public Connection connect(Properties extra) throws SQLException {
        Properties properties = new Properties();
        properties.putAll(extra);
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    @Override
    public String toString() {
        return "PgEndpoint[" + jdbcUrl + " as " + user + "]";
    }
}
