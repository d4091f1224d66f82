package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Reads the source database's catalog ({@code pg_catalog}) over a JDBC connection the caller owns (not closed
 * here). Every call reads the catalog afresh: nothing is cached. Not thread-safe (a JDBC connection is not).
 *
 * <p>Tables are ordinary tables and partitioned tables' roots ({@code relkind} {@code r} or {@code p});
 * partitions are not listed on their own (their rows belong to the root, and ingest publishes them via the root).
 * Size estimates are {@code pg_class.reltuples}, never a {@code count(*)}.
 */
public final class SourceCatalog {

    private static final String LIST_TABLES = """
        SELECT n.nspname, c.relname
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND n.nspname = ANY (?)
         ORDER BY n.nspname, c.relname""";

    private static final String LIST_USER_TABLES = """
        SELECT n.nspname, c.relname
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp_)'
         ORDER BY n.nspname, c.relname""";

    /**
     * The schema's oid is a scalar subquery so that each name is one probe of {@code pg_class}'s (name, schema)
     * index: a join on the name alone matches a table of that name in every schema (tenants share table names).
     */
    private static final String FIND_TABLES = """
        SELECT u.ord, c.oid, c.relkind, c.relreplident
          FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS u(nspname, relname, ord)
          JOIN pg_class c ON c.relname = u.relname
                         AND c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = u.nspname)""";

    private static final String COLUMNS = """
        SELECT a.attrelid, a.attname, a.attnum, a.atttypid, t.typname, format_type(a.atttypid, a.atttypmod),
               t.typtype, t.typcategory, et.oid, et.typname, et.typtype, a.attnotnull, a.attgenerated, a.attndims
          FROM pg_attribute a
          JOIN pg_type t ON t.oid = a.atttypid
          LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
         WHERE a.attrelid = ANY (?::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY a.attrelid, a.attnum""";

    private static final String KEYS = """
        SELECT i.indrelid, i.indisprimary, i.indisreplident, array_agg(a.attname ORDER BY k.ord)
          FROM pg_index i
          CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
         WHERE i.indrelid = ANY (?::oid[]) AND (i.indisprimary OR i.indisreplident)
         GROUP BY i.indrelid, i.indexrelid, i.indisprimary, i.indisreplident""";

    private static final String ESTIMATES = """
        SELECT r.oid, e.total, e.unanalyzed
          FROM unnest(?::oid[]) AS r(oid)
          CROSS JOIN LATERAL (
                SELECT sum(greatest(c.reltuples, 0)) AS total, bool_and(c.reltuples < 0) AS unanalyzed
                  FROM pg_class c
                 WHERE c.oid = ANY (coalesce((SELECT array_agg(relid) FROM pg_partition_tree(r.oid) WHERE isleaf),
                                             ARRAY[r.oid]))) e""";

    private final Connection connection;

    /** A catalog reader over {@code connection}, which stays the caller's to close. */
    public SourceCatalog(Connection connection) {
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    /** The tables of the given schemas (names exactly as stored), ordered by schema and name. */
    public List<TableId> listTables(Collection<String> schemas) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(LIST_TABLES)) {
            Array names = connection.createArrayOf("text", schemas.toArray());
            s.setArray(1, names);
            return readTableIds(s);
        }
    }

    /** Every table outside the system schemas, ordered by schema and name. */
    public List<TableId> listAllUserTables() throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(LIST_USER_TABLES)) {
            return readTableIds(s);
        }
    }

    private static List<TableId> readTableIds(PreparedStatement s) throws SQLException {
        List<TableId> tables = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                tables.add(TableId.of(rs.getString(1), rs.getString(2)));
            }
        }
        return tables;
    }

    /**
     * Describes a table: its encoded columns, key, replica identity and size estimate.
     *
     * @throws TableNotFoundException          if there is no such table
     * @throws MissingPrimaryKeyException      if it has neither a primary key nor a replica identity index
     * @throws UnsupportedColumnTypeException  if a column's type has no canonical encoding
     */
    public TableSchema describe(TableId table) throws SQLException {
        return describeAll(List.of(table)).get(table).schema();
    }

    /**
     * Describes every table of {@code tables} in four catalog queries, whatever their number: each exactly as
     * {@link #describe} would, a table that cannot be replicated as it is with the exception {@link #describe}
     * would throw for it. The map iterates in the order of {@code tables} (duplicates once).
     */
    public Map<TableId, TableDescription> describeAll(Collection<TableId> tables) throws SQLException {
        List<TableId> ordered = List.copyOf(new LinkedHashSet<>(tables));
        Map<TableId, TableDescription> described = new LinkedHashMap<>();
        if (ordered.isEmpty()) {
            return described;
        }
        Map<TableId, Relation> relations = find(ordered);
        Long[] oids = relations.values().stream().filter(Relation::isTable).map(Relation::oid).toArray(Long[]::new);
        Map<Long, List<CatalogColumn>> columns = columns(oids);
        Map<Long, KeyIndexes> keys = keys(oids);
        Map<Long, OptionalLong> estimates = estimates(oids);
        for (TableId table : ordered) {
            Relation relation = relations.get(table);
            try {
                if (relation == null) {
                    throw new TableNotFoundException(table, "does not exist");
                }
                if (!relation.isTable()) {
                    throw new TableNotFoundException(table, "is not a table (pg_class.relkind '" + relation.kind
                        + "')");
                }
                List<SourceColumn> resolved = new ArrayList<>();
                for (CatalogColumn column : columns.getOrDefault(relation.oid, List.of())) {
                    resolved.add(ColumnTypes.resolve(table, column.row()));
                }
                Key key = keys.getOrDefault(relation.oid, new KeyIndexes(null, null)).key(table);
                described.put(table, TableDescription.of(new TableSchema(table, relation.oid, resolved, key.columns,
                    key.source, relation.identity, estimates.getOrDefault(relation.oid, OptionalLong.empty()))));
            } catch (SourceSchemaException e) {
                described.put(table, TableDescription.failed(e));
            }
        }
        return described;
    }

    /** The current {@code pg_class.reltuples} estimate of a table (summed over partitions), if ever analyzed. */
    public OptionalLong estimatedRows(TableId table) throws SQLException {
        Relation relation = find(List.of(table)).get(table);
        if (relation == null) {
            throw new TableNotFoundException(table, "does not exist");
        }
        return estimates(new Long[] {relation.oid}).getOrDefault(relation.oid, OptionalLong.empty());
    }

    private record Relation(long oid, char kind, ReplicaIdentity identity) {
        boolean isTable() {
            return kind == 'r' || kind == 'p';
        }
    }

    private record Key(List<String> columns, KeySource source) {
    }

    /** A column's catalog row, resolved per table (a type without encoding fails only its table). */
    private record CatalogColumn(ColumnTypes.CatalogRow row) {
    }

    /** A table's primary key and replica identity index columns, either absent ({@code null}). */
    private record KeyIndexes(List<String> primary, List<String> identity) {
        Key key(TableId table) {
            if (primary != null) {
                return new Key(primary, KeySource.PRIMARY_KEY);
            }
            if (identity != null) {
                return new Key(identity, KeySource.REPLICA_IDENTITY_INDEX);
            }
            throw new MissingPrimaryKeyException(table);
        }
    }

    private Map<TableId, Relation> find(List<TableId> tables) throws SQLException {
        Map<TableId, Relation> relations = new HashMap<>();
        try (PreparedStatement s = connection.prepareStatement(FIND_TABLES)) {
            s.setArray(1, connection.createArrayOf("text", tables.stream().map(TableId::schema).toArray()));
            s.setArray(2, connection.createArrayOf("text", tables.stream().map(TableId::name).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    relations.put(tables.get(rs.getInt(1) - 1), new Relation(rs.getLong(2), rs.getString(3).charAt(0),
                        ReplicaIdentity.ofCode(rs.getString(4).charAt(0))));
                }
            }
        }
        return relations;
    }

    private Map<Long, List<CatalogColumn>> columns(Long[] oids) throws SQLException {
        Map<Long, List<CatalogColumn>> columns = new HashMap<>();
        if (oids.length == 0) {
            return columns;
        }
        try (PreparedStatement s = connection.prepareStatement(COLUMNS)) {
            s.setArray(1, connection.createArrayOf("int8", oids));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String generated = rs.getString(13);
                    if (generated != null && !generated.isEmpty()) {
                        continue;
                    }
                    columns.computeIfAbsent(rs.getLong(1), oid -> new ArrayList<>()).add(new CatalogColumn(
                        new ColumnTypes.CatalogRow(rs.getString(2), rs.getInt(3), rs.getLong(4), rs.getString(5),
                            rs.getString(6), rs.getString(7).charAt(0), rs.getString(8).charAt(0), rs.getLong(9),
                            rs.getString(10), rs.getString(11) == null ? ' ' : rs.getString(11).charAt(0),
                            rs.getBoolean(12), rs.getInt(14))));
                }
            }
        }
        return columns;
    }

    private Map<Long, KeyIndexes> keys(Long[] oids) throws SQLException {
        Map<Long, KeyIndexes> keys = new HashMap<>();
        if (oids.length == 0) {
            return keys;
        }
        try (PreparedStatement s = connection.prepareStatement(KEYS)) {
            s.setArray(1, connection.createArrayOf("int8", oids));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    List<String> names = List.of((String[]) rs.getArray(4).getArray());
                    KeyIndexes known = keys.getOrDefault(rs.getLong(1), new KeyIndexes(null, null));
                    if (rs.getBoolean(2)) {
                        known = new KeyIndexes(names, known.identity());
                    } else if (rs.getBoolean(3)) {
                        known = new KeyIndexes(known.primary(), names);
                    }
                    keys.put(rs.getLong(1), known);
                }
            }
        }
        return keys;
    }

    private Map<Long, OptionalLong> estimates(Long[] oids) throws SQLException {
        Map<Long, OptionalLong> estimates = new HashMap<>();
        if (oids.length == 0) {
            return estimates;
        }
        try (PreparedStatement s = connection.prepareStatement(ESTIMATES)) {
            s.setArray(1, connection.createArrayOf("int8", oids));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    estimates.put(rs.getLong(1), rs.getBoolean(3) ? OptionalLong.empty()
                        : OptionalLong.of(Math.round(rs.getDouble(2))));
                }
            }
        }
        return estimates;
    }
}
