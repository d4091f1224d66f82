package io.tributary.writer;

import java.util.Objects;

/**
 * How to reach the storage database.
 *
 * @param jdbcUrl  a {@code jdbc:postgresql:} URL
 * @param user     the user
 * @param password the password (never printed)
 */
public record StorageEndpoint(String jdbcUrl, String user, String password) {

    public StorageEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("Storage needs a jdbc:postgresql: URL, got " + jdbcUrl);
        }
    }

    @Override
    public String toString() {
        return "StorageEndpoint[" + jdbcUrl + " as " + user + "]";
    }
}
