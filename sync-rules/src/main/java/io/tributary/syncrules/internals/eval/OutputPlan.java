package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SelectItem;
import io.tributary.syncrules.internals.sql.SqlException;
import io.tributary.topics.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A data query's compiled SELECT list: writes the output row and extracts its id.
 *
 * <p>The output is a compact JSON object of client values ({@link ClientValues}) with keys in SELECT order;
 * {@code *} expands to the row's keys in the row's order, except keys that an explicit item of the list also
 * produces (the explicit item wins and keeps its own position). The id is the {@code id} output value: a string's
 * content or a number's canonical text. Immutable and thread-safe.
 */
final class OutputPlan {

    /** A row that a query selected but cannot output. Stackless: it reports data, not a bug. */
    static final class RowException extends Exception {
        private static final long serialVersionUID = 1L;

        RowException(String message) {
            super(message, null, false, false);
        }
    }

    private sealed interface Field {
    }

    private record Star(Set<String> excluded) implements Field {
    }

    private record Named(String keyPrefix, ValueSource<ObjectNode> value) implements Field {
    }

    private final Field[] fields;
    private final ValueSource<ObjectNode> id;
    private final int idOffset;

    private OutputPlan(List<Field> fields, ValueSource<ObjectNode> id, int idOffset) {
        this.fields = fields.toArray(new Field[0]);
        this.id = id;
        this.idOffset = idOffset;
    }

    /**
     * Compiles {@code items}; fails when an item is not a column, {@code *} or an aliased literal, when two items
     * produce the same key, or when nothing produces {@code id}.
     */
    static OutputPlan compile(int queryOffset, List<SelectItem> items, RowOperands operands,
                              Set<String> qualifiers) throws SqlException {
        Map<String, ValueSource<ObjectNode>> named = new LinkedHashMap<>();
        int idOffset = -1;
        int starOffset = -1;
        boolean star = false;
        for (SelectItem item : items) {
            if (item instanceof SelectItem.Star s) {
                if (s.qualifier().isPresent() && !qualifiers.contains(s.qualifier().get())) {
                    throw new SqlException(s.offset(), "unknown table '" + s.qualifier().get() + "' in "
                        + s.qualifier().get() + ".*");
                }
                if (star) {
                    throw new SqlException(s.offset(), "* can only be selected once");
                }
                star = true;
                starOffset = s.offset();
            } else {
                SelectItem.Value value = (SelectItem.Value) item;
                ValueSource<ObjectNode> source = operands.resolve(value.expression());
                String key = outputKey(value);
                if (named.putIfAbsent(key, source) != null) {
                    throw new SqlException(value.offset(), "duplicate output column '" + key + "'");
                }
                if (key.equals("id")) {
                    idOffset = value.offset();
                }
            }
        }
        Set<String> explicit = Set.copyOf(named.keySet());
        List<Field> fields = new ArrayList<>();
        for (SelectItem item : items) {
            if (item instanceof SelectItem.Value value) {
                String key = outputKey(value);
                StringBuilder prefix = new StringBuilder();
                CanonicalJson.quote(key, prefix);
                fields.add(new Named(prefix.append(':').toString(), named.get(key)));
            } else {
                fields.add(new Star(explicit));
            }
        }
        Optional<ValueSource<ObjectNode>> id = Optional.ofNullable(named.get("id"));
        if (id.isEmpty() && star) {
            id = Optional.of(new RowOperands.Column("id"));
            idOffset = starOffset;
        }
        if (id.isEmpty()) {
            throw new SqlException(queryOffset, "data query must output an id: select a column named id, *, "
                + "or an expression AS id");
        }
        return new OutputPlan(fields, id.get(), idOffset);
    }

    /** The source column the id is read from; empty when the id is a literal. */
    Optional<String> idColumn() {
        return id instanceof RowOperands.Column column ? Optional.of(column.name()) : Optional.empty();
    }

    /** The 0-based offset in the query of the item that produces the id ({@code ... AS id}, {@code id} or *). */
    int idOffset() {
        return idOffset;
    }

    /** Whether the SELECT list is exactly {@code *}: the output is every column of the row, in the row's order. */
    boolean isStarOnly() {
        return fields.length == 1 && fields[0] instanceof Star star && star.excluded().isEmpty();
    }

    /** Whether the output needs every column of the row ({@code *} among the items). */
    boolean readsEveryColumn() {
        return Arrays.stream(fields).anyMatch(Star.class::isInstance);
    }

    /** The row id. */
    String id(ObjectNode row) throws RowException {
        JsonNode value = id.get(row);
        if (value == null || value.isMissingNode()) {
            throw new RowException("row has no id column");
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isNumber()) {
            return value.numberValue().toString();
        }
        if (value.isNull()) {
            throw new RowException("id is null");
        }
        throw new RowException("id must be a string or a number, got " + value.getNodeType().name().toLowerCase(
            Locale.ROOT));
    }

    /** The output row as compact JSON, each value as the client gets it in {@code edition} ({@link ClientValues}). */
    String data(ObjectNode row, Edition edition) {
        StringBuilder out = new StringBuilder(256).append('{');
        boolean first = true;
        for (Field field : fields) {
            if (field instanceof Named named) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(named.keyPrefix());
                ClientValues.write(named.value().get(row), edition, out);
            } else {
                Set<String> excluded = ((Star) field).excluded();
                for (Map.Entry<String, JsonNode> column : row.properties()) {
                    if (excluded.contains(column.getKey())) {
                        continue;
                    }
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    CanonicalJson.quote(column.getKey(), out);
                    out.append(':');
                    ClientValues.write(column.getValue(), edition, out);
                }
            }
        }
        return out.append('}').toString();
    }

    private static String outputKey(SelectItem.Value item) throws SqlException {
        if (item.alias().isPresent()) {
            return item.alias().get();
        }
        Expr expression = item.expression();
        if (expression instanceof Expr.ColumnRef column) {
            return column.name();
        }
        if (expression instanceof Expr.Literal) {
            throw new SqlException(item.offset(), "a literal in SELECT needs an alias (AS name)");
        }
        throw new SqlException(item.offset(), "this SELECT item needs an alias (AS name)");
    }
}
