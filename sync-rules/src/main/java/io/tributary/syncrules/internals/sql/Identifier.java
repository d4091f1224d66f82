package io.tributary.syncrules.internals.sql;

import java.util.Objects;

/**
 * A name as written in the query.
 *
 * @param value  folded to lower case when unquoted, exact when quoted
 * @param quoted whether it was double-quoted
 * @param offset 0-based offset in the query
 */
public record Identifier(String value, boolean quoted, int offset) {

    public Identifier {
        Objects.requireNonNull(value, "value");
    }

    /** Whether the name holds the wildcard {@code %}. */
    public boolean hasWildcard() {
        return value.indexOf('%') >= 0;
    }
}
