package io.tributary.syncrules.internals.sql;

import java.util.Objects;
import java.util.Optional;

/** One item of a SELECT list. */
public sealed interface SelectItem {

    /** 0-based offset of the item in the query. */
    int offset();

    /** {@code *} or {@code qualifier.*}. */
    record Star(int offset, Optional<String> qualifier) implements SelectItem {
        public Star {
            Objects.requireNonNull(qualifier, "qualifier");
        }
    }

    /** {@code expression [AS alias]}. */
    record Value(int offset, Expr expression, Optional<String> alias) implements SelectItem {
        public Value {
            Objects.requireNonNull(expression, "expression");
            Objects.requireNonNull(alias, "alias");
        }
    }
}
