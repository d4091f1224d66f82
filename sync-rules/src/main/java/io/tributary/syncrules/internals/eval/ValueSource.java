package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A compiled operand: reads a value from an input (a row column, a request claim) or is a constant.
 * The result may be a Java {@code null} for a missing value. Implementations are immutable and thread-safe.
 *
 * @param <T> the input
 */
public interface ValueSource<T> {

    /** The value for {@code input}, or {@code null} when absent. */
    JsonNode get(T input);

    /**
     * A literal.
     *
     * @param value the value
     * @param <T>   the input
     */
    record Constant<T>(JsonNode value) implements ValueSource<T> {
        public Constant {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public JsonNode get(T input) {
            return value;
        }
    }
}
