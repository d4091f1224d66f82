package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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

    private static final String FIND_TABLE = """
        SELECT c.oid, c.relkind, c.relreplident
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ? AND c.relname = ?""";

    private static final String COLUMNS = """
        SELECT a.attname, a.attnum, a.atttypid, t.typname, format_type(a.atttypid, a.atttypmod), t.typtype,
               t.typcategory, et.oid, et.typname, et.typtype, a.attnotnull, a.attgenerated, a.attndims
          FROM pg_attribute a
          JOIN pg_type t ON t.oid = a.atttypid
          LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
         WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY a.attnum""";

    private static final String KEYS = """
        SELECT i.indisprimary, i.indisreplident, array_agg(a.attname ORDER BY k.ord)
          FROM pg_index i
          CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
         WHERE i.indrelid = ? AND (i.indisprimary OR i.indisreplident)
         GROUP BY i.indexrelid, i.indisprimary, i.indisreplident""";

    private static final String ESTIMATE = """
        WITH leaves AS (SELECT relid FROM pg_partition_tree(?::oid) WHERE isleaf)
        SELECT sum(greatest(c.reltuples, 0)), bool_and(c.reltuples < 0)
          FROM pg_class c
         WHERE c.oid IN (SELECT relid FROM leaves) OR c.oid = ?::oid AND NOT EXISTS (SELECT 1 FROM leaves)""";

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
        Relation relation = find(table).orElseThrow(() -> new TableNotFoundException(table, "does not exist"));
        if (relation.kind != 'r' && relation.kind != 'p') {
            throw new TableNotFoundException(table, "is not a table (pg_class.relkind '" + relation.kind + "')");
        }
        List<SourceColumn> columns = columns(table, relation.oid);
        Key key = key(table, relation.oid);
        return new TableSchema(table, relation.oid, columns, key.columns, key.source, relation.identity,
            estimate(relation.oid));
    }

    /** The current {@code pg_class.reltuples} estimate of a table (summed over partitions), if ever analyzed. */
    public OptionalLong estimatedRows(TableId table) throws SQLException {
        Relation relation = find(table).orElseThrow(() -> new TableNotFoundException(table, "does not exist"));
        return estimate(relation.oid);
    }

    private record Relation(long oid, char kind, ReplicaIdentity identity) {
    }

    private record Key(List<String> columns, KeySource source) {
    }

    private Optional<Relation> find(TableId table) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(FIND_TABLE)) {
            s.setString(1, table.schema());
            s.setString(2, table.name());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Relation(rs.getLong(1), rs.getString(2).charAt(0),
                    ReplicaIdentity.ofCode(rs.getString(3).charAt(0))));
            }
        }
    }

    private List<SourceColumn> columns(TableId table, long oid) throws SQLException {
        List<SourceColumn> columns = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement(COLUMNS)) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String generated = rs.getString(12);
                    if (generated != null && !generated.isEmpty()) {
                        continue;
                    }
                    columns.add(ColumnTypes.resolve(table, new ColumnTypes.CatalogRow(rs.getString(1), rs.getInt(2),
                        rs.getLong(3), rs.getString(4), rs.getString(5), rs.getString(6).charAt(0),
                        rs.getString(7).charAt(0), rs.getLong(8), rs.getString(9),
                        rs.getString(10) == null ? ' ' : rs.getString(10).charAt(0), rs.getBoolean(11),
                        rs.getInt(13))));
                }
            }
        }
        return columns;
    }

    private Key key(TableId table, long oid) throws SQLException {
        List<String> primary = null;
        List<String> identity = null;
        try (PreparedStatement s = connection.prepareStatement(KEYS)) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    List<String> names = List.of((String[]) rs.getArray(3).getArray());
                    if (rs.getBoolean(1)) {
                        primary = names;
                    } else if (rs.getBoolean(2)) {
                        identity = names;
                    }
                }
            }
        }
        if (primary != null) {
            return new Key(primary, KeySource.PRIMARY_KEY);
        }
        if (identity != null) {
            return new Key(identity, KeySource.REPLICA_IDENTITY_INDEX);
        }
        throw new MissingPrimaryKeyException(table);
    }

    private OptionalLong estimate(long oid) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(ESTIMATE)) {
            s.setLong(1, oid);
            s.setLong(2, oid);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next() || rs.getBoolean(2)) {
                    return OptionalLong.empty();
                }
                return OptionalLong.of(Math.round(rs.getDouble(1)));
            }
        }
    }
}
