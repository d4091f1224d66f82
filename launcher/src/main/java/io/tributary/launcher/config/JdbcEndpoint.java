package io.tributary.launcher.config;

import java.util.Objects;

/** A Postgres database to connect to: JDBC URL (with its sslmode and friends), user and password. */
public record JdbcEndpoint(String url, String user, Secret password) {

    public JdbcEndpoint {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }
}
