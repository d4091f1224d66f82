package io.tributary.snapshot.read;

import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.sql.Identifiers;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.KeyValues;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The keyset query of one chunk: {@code SELECT <columns> FROM t WHERE (k1, k2) >= (lo) AND (k1, k2) < (hi)
 * ORDER BY k1, k2}, bounds bound as parameters cast to each key column's type, so the primary key index serves
 * the range and the order. An absent bound drops its condition. Immutable.
 *
 * @param sql        the statement text
 * @param parameters the parameter values in order (text, cast in SQL)
 */
public record RangeQuery(String sql, List<String> parameters) {

    public RangeQuery {
        Objects.requireNonNull(sql, "sql");
        parameters = Collections.unmodifiableList(new ArrayList<>(parameters));
    }

    /** The query of {@code range} over {@code table}, selecting {@code selectList} (the row encoder's). */
    public static RangeQuery of(TableSchema table, String selectList, ChunkRange range) {
        List<SourceColumn> keys = new ArrayList<>();
        for (String name : table.keyColumns()) {
            keys.add(table.column(name).orElseThrow());
        }
        String keyList = keys.stream().map(c -> Identifiers.quote(c.name())).collect(Collectors.joining(", "));
        String columns = keys.size() == 1 ? keyList : "(" + keyList + ")";
        List<String> conditions = new ArrayList<>();
        List<String> parameters = new ArrayList<>();
        range.lo().ifPresent(lo -> conditions.add(columns + " >= " + bound(keys, lo, parameters)));
        range.hi().ifPresent(hi -> conditions.add(columns + " < " + bound(keys, hi, parameters)));
        String where = conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
        String sql = "SELECT " + selectList + " FROM " + table.table().quoted() + where + " ORDER BY " + keyList;
        return new RangeQuery(sql, parameters);
    }

    private static String bound(List<SourceColumn> keys, KeyValues bound, List<String> parameters) {
        List<String> texts = KeyBounds.texts(bound);
        if (texts.size() != keys.size()) {
            throw new IllegalArgumentException("Chunk bound " + bound + " has " + texts.size() + " values for key "
                + keys.stream().map(SourceColumn::name).collect(Collectors.toList()));
        }
        List<String> casts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            parameters.add(texts.get(i));
            casts.add("?::" + keys.get(i).formattedType());
        }
        return keys.size() == 1 ? casts.get(0) : "(" + String.join(", ", casts) + ")";
    }

    /** Binds the parameters to {@code statement} (prepared from {@link #sql()}). */
    public void bind(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setString(i + 1, parameters.get(i));
        }
    }

    /** Whether the query has no bound (the whole table). */
    public boolean isWholeTable() {
        return parameters.isEmpty();
    }
}
