package io.tributary.launcher.config;

import java.util.Objects;

/** A password or other secret: never printed; {@link #toString()} is a mask. */
public record Secret(String value) {

    public Secret {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return value.isEmpty() ? "" : "****";
    }
}
