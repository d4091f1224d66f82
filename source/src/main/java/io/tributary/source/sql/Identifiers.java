package io.tributary.source.sql;

import java.util.Objects;

/**
 * Quotes Postgres identifiers so any name (mixed case, spaces, quotes, reserved words) is used exactly as the
 * catalog spells it. Stateless and thread-safe.
 */
public final class Identifiers {

    private Identifiers() {
    }

    /**
     * The identifier in double quotes, inner double quotes doubled: {@code a"b} becomes {@code "a""b"}.
     *
     * @throws IllegalArgumentException if the name is empty or contains a NUL character (Postgres allows neither)
     */
    public static String quote(String identifier) {
        Objects.requireNonNull(identifier, "identifier");
        if (identifier.isEmpty()) {
            throw new IllegalArgumentException("An SQL identifier cannot be empty");
        }
        if (identifier.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(
                "An SQL identifier cannot contain NUL: " + identifier.replace('\0', '?'));
        }
        StringBuilder quoted = new StringBuilder(identifier.length() + 2).append('"');
        for (int i = 0; i < identifier.length(); i++) {
            char c = identifier.charAt(i);
            if (c == '"') {
                quoted.append('"');
            }
            quoted.append(c);
        }
        return quoted.append('"').toString();
    }

    /** {@code "schema"."table"}, each part quoted by {@link #quote(String)}. */
    public static String qualified(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }
}
