package io.tributary.storage.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One versioned step of the storage schema, read from the SQL resource {@code V<version>__<name>.sql} next to
 * this class. Steps are immutable once released: a change is a new step.
 */
public record Migration(int version, String name) {

    public Migration {
        if (version < 1) {
            throw new IllegalArgumentException("Migration versions start at 1: " + version);
        }
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("Migration name must be lower_snake_case: " + name);
        }
    }

    /** The resource holding the step's SQL. */
    public String resource() {
        return "V" + version + "__" + name + ".sql";
    }

    /** The step's SQL. */
    public String sql() {
        try (InputStream in = Migration.class.getResourceAsStream(resource())) {
            if (in == null) {
                throw new IllegalStateException("Migration resource missing from the build: " + resource());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read migration " + resource(), e);
        }
    }
}
