package io.tributary.launcher.lifecycle;

import io.tributary.source.catalog.KeySource;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.source.catalog.TableDescription;
import io.tributary.source.catalog.TableSchema;
import io.tributary.syncrules.DataQueryId;
import io.tributary.syncrules.SourceTable;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks, against the source catalog, that every data query's output {@code id} is its table's primary key: a
 * single key column, selected as is, aliased {@code AS id}, or through {@code *} when that column is named
 * {@code id}.
 *
 * <p>{@code rows} is keyed by table and primary key, and each partition's writer allocates op ids on its own. An id
 * that is another column (or one column of a composite key) lets a change of its value become a REMOVE of the old
 * id and a PUT of the new one in two partitions, whose op ids are not ordered: the row can vanish on the client.
 * Rules reading such a table are therefore refused at deploy. Wildcard table patterns are checked for every
 * matching table the source has now; tables capture refuses (no key, a column type it cannot encode) are not
 * checked. A table created later is checked by the snapshot planner before its window opens
 * ({@link #problems}, through {@link SyncRulesMatcher}).
 */
public final class RowIdKeys {

    private RowIdKeys() {
    }

    /**
     * Checks {@code rules} against the tables of {@code source} (a connection the caller owns), describing the tables
     * the rules read at once.
     *
     * @param file where the rules came from, for the message (a path, or a name such as the sample rules)
     * @throws RulesFile.InvalidRulesException naming the file, line and column of every offending id, the table,
     *                                         its primary key and the fix
     */
    public static void check(Connection source, SyncRules rules, String file) throws SQLException {
        List<String> problems = new ArrayList<>();
        problems(source, rules, new SourceCatalog(source).listAllUserTables()).values()
            .forEach(found -> found.forEach(problem -> problems.add(file + ":" + problem)));
        if (!problems.isEmpty()) {
            StringBuilder message = new StringBuilder("Sync rules in " + file + " do not fit the source tables:");
            problems.forEach(problem -> message.append(System.lineSeparator()).append("  ").append(problem));
            throw new RulesFile.InvalidRulesException(message.toString(), null);
        }
    }

    /**
     * For each table of {@code tables} (tables of {@code source}, a connection the caller owns) that {@code rules}
     * read, the problems of the data queries that read it, one per offending query as {@code LINE:COLUMN: message}
     * (the message names the query, the table, its key and the fix); an empty list if every such query's id is the
     * table's primary key, or if capture refuses the table (no key, a column it cannot encode) or it does not exist.
     * Tables the rules do not read are absent. The tables read are described at once.
     */
    public static Map<TableId, List<String>> problems(Connection source, SyncRules rules, Collection<TableId> tables)
        throws SQLException {
        Map<TableId, List<DataQueryId>> readers = new LinkedHashMap<>();
        for (TableId table : tables) {
            for (DataQueryId id : rules.dataQueryIds()) {
                if (id.reads(new SourceTable(table.schema(), table.name()))) {
                    readers.computeIfAbsent(table, t -> new ArrayList<>()).add(id);
                }
            }
        }
        Map<TableId, TableDescription> described = new SourceCatalog(source).describeAll(readers.keySet());
        Map<TableId, List<String>> problems = new LinkedHashMap<>();
        readers.forEach((table, ids) -> {
            List<String> found = new ArrayList<>();
            ids.forEach(id -> problem(described.get(table), table, id)
                .ifPresent(message -> found.add(id.line() + ":" + id.column() + ": " + message)));
            problems.put(table, found);
        });
        return problems;
    }

    private static Optional<String> problem(TableDescription description, TableId table, DataQueryId id) {
        TableSchema schema;
        try {
            schema = description.schema();
        } catch (SourceSchemaException e) {
            // No key at all, or a column capture cannot encode: capture refuses the table, naming it and the fix,
            // while the other tables replicate. A deploy after the fix checks its ids.
            return Optional.empty();
        }
        List<String> key = schema.keyColumns();
        String keyName = schema.keySource() == KeySource.PRIMARY_KEY ? "primary key"
            : "key (a replica identity index; it has no primary key)";
        String keyColumns = "(" + String.join(", ", key) + ")";
        if (key.size() > 1) {
            return Optional.of(id.query() + " reads " + table + ", whose " + keyName + " " + keyColumns
                + " has " + key.size() + " columns; a data query's id must be a single-column primary key, so one "
                + "row's changes stay in order: give " + table + " a single-column primary key and select it as id");
        }
        String column = key.get(0);
        if (id.sourceColumn().filter(column::equals).isPresent()) {
            return Optional.empty();
        }
        String found = id.sourceColumn().map(c -> "column " + c).orElse("a literal");
        String fix = column.equals("id") ? "select id (or *)" : "select " + column + " AS id";
        return Optional.of(id.query() + " outputs id from " + found + " of " + table + ", but its " + keyName
            + " is " + keyColumns + "; a data query's id must be its table's primary key, so one row's changes stay "
            + "in order: " + fix);
    }
}
