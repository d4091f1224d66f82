package io.tributary.topics.messages;

import java.util.Comparator;
import java.util.Objects;

/**
 * A source table: its schema and name, exactly as Postgres stores them (case preserved; any character, including
 * dots and double quotes, is legal). Two ids are equal iff both parts are equal, character for character.
 *
 * <p>{@link #toString()} ({@code schema.name}) is for logs only and ambiguous when a part contains a dot; use
 * {@link #quoted()} in SQL and the two parts separately in any encoding.
 *
 * @param schema the schema (namespace) name, non-empty
 * @param name   the table name, non-empty
 */
public record TableId(String schema, String name) implements Comparable<TableId> {

    private static final Comparator<TableId> ORDER =
        Comparator.comparing(TableId::schema).thenComparing(TableId::name);

    public TableId {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        if (schema.isEmpty() || name.isEmpty()) {
            throw new IllegalArgumentException("A table id needs a non-empty schema and name, got '"
                + schema + "'.'" + name + "'");
        }
    }

    /** The table {@code name} in schema {@code schema}. */
    public static TableId of(String schema, String name) {
        return new TableId(schema, name);
    }

    /** The SQL-quoted form {@code "schema"."name"}, with embedded double quotes doubled. */
    public String quoted() {
        return quote(schema) + "." + quote(name);
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** Orders by schema, then name (UTF-16 code unit order). */
    @Override
    public int compareTo(TableId other) {
        return ORDER.compare(this, other);
    }

    /** {@code schema.name}, for logs. */
    @Override
    public String toString() {
        return schema + "." + name;
    }
}
