package io.tributary.syncrules.internals.sql;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code SELECT items [FROM table] [WHERE condition]}.
 *
 * @param offset      offset of the SELECT keyword
 * @param items       the select list, never empty
 * @param from        the FROM clause, if any
 * @param where       the WHERE condition, if any
 * @param whereOffset offset of the WHERE keyword, or of the end of the query without one
 */
public record Query(int offset, List<SelectItem> items, Optional<TableRef> from, Optional<Expr> where,
                    int whereOffset) {

    public Query {
        items = List.copyOf(items);
        if (items.isEmpty()) {
            throw new IllegalArgumentException("a query selects at least one item");
        }
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(where, "where");
    }
}
