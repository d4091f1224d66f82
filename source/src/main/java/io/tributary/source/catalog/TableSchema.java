package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A source table as the catalog described it at one moment: the columns the canonical encoding writes (in
 * {@code attnum} order; dropped and generated columns are left out, as pgoutput leaves them out), its key and
 * its replica identity. Immutable.
 *
 * @param table          the table
 * @param relationOid    {@code pg_class.oid}
 * @param columns        the encoded columns in ordinal order, at least one
 * @param keyColumns     the key column names in key order, at least one, each one of {@code columns}
 * @param keySource      whether the key is the primary key or the replica identity index
 * @param replicaIdentity the table's replica identity
 * @param estimatedRows  {@code pg_class.reltuples} (summed over partitions), empty if never analyzed
 */
public record TableSchema(TableId table, long relationOid, List<SourceColumn> columns, List<String> keyColumns,
                          KeySource keySource, ReplicaIdentity replicaIdentity, OptionalLong estimatedRows) {

    public TableSchema {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keySource, "keySource");
        Objects.requireNonNull(replicaIdentity, "replicaIdentity");
        Objects.requireNonNull(estimatedRows, "estimatedRows");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("Table " + table + " has no columns to replicate");
        }
        if (keyColumns.isEmpty()) {
            throw new IllegalArgumentException("Table " + table + " needs at least one key column");
        }
        Set<String> names = new HashSet<>();
        int previous = 0;
        for (SourceColumn column : columns) {
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("Table " + table + ": duplicate column " + column.name());
            }
            if (column.ordinal() <= previous) {
                throw new IllegalArgumentException("Table " + table + ": columns must be in ordinal order");
            }
            previous = column.ordinal();
        }
        for (String key : keyColumns) {
            if (!names.contains(key)) {
                throw new IllegalArgumentException("Table " + table + ": key column " + key + " is not a column");
            }
        }
        if (new HashSet<>(keyColumns).size() != keyColumns.size()) {
            throw new IllegalArgumentException("Table " + table + ": duplicate key column in " + keyColumns);
        }
    }

    /** A schema with a primary key, DEFAULT replica identity and no estimate (tests and tools). */
    public static TableSchema of(TableId table, List<SourceColumn> columns, List<String> keyColumns) {
        return new TableSchema(table, 0, columns, keyColumns, KeySource.PRIMARY_KEY, ReplicaIdentity.DEFAULT,
            OptionalLong.empty());
    }

    /** The column with this name. */
    public Optional<SourceColumn> column(String name) {
        for (SourceColumn column : columns) {
            if (column.name().equals(name)) {
                return Optional.of(column);
            }
        }
        return Optional.empty();
    }

    /** The positions in {@link #columns()} of the key columns, in key order. */
    public int[] keyColumnPositions() {
        int[] positions = new int[keyColumns.size()];
        for (int k = 0; k < positions.length; k++) {
            positions[k] = -1;
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).name().equals(keyColumns.get(k))) {
                    positions[k] = c;
                }
            }
        }
        return positions;
    }

    /**
     * Whether the WAL identifies deleted rows: the old key travels with deletes unless the replica identity is
     * {@code NOTHING}, or {@code DEFAULT} on a table whose key is not its primary key.
     */
    public boolean deletesCarryKey() {
        return switch (replicaIdentity) {
            case FULL, INDEX -> true;
            case DEFAULT -> keySource == KeySource.PRIMARY_KEY;
            case NOTHING -> false;
        };
    }
}
