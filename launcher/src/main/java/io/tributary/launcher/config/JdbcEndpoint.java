package io.tributary.launcher.config;

import io.tributary.postgres.PgEndpoint;
import java.util.Objects;

/** A Postgres database to connect to: JDBC URL (with its sslmode and friends), user and password. */
public record JdbcEndpoint(String url, String user, Secret password) {

    public JdbcEndpoint {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /**
     * The endpoint as the stages take it (the password revealed to it, never printed by it).
     *
     * @throws IllegalArgumentException if the URL is not a {@code jdbc:postgresql://host[:port]/database} URL
     */
    public PgEndpoint toPgEndpoint() {
        return PgEndpoint.of(url, user, password.value());
    }
}
