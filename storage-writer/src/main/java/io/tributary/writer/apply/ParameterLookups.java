package io.tributary.writer.apply;

import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.SourceTable;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableTruncate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Keeps {@code bucket_parameters} in step with the rows of the tables parameter queries read, inside the caller's
 * batch transaction: each change of such a row appends a version per lookup whose parameters it changes (a new
 * lookup, other parameters) and a {@code NULL} version per lookup it no longer makes; a truncation retires every
 * lookup of the table's rows in the partition. The caller gives the versions op ids from the same allocation as
 * the ops, batch after batch (a batch's ops, then its versions), and counts them in its partition's highest op id,
 * so a checkpoint covers a lookup version exactly when it covers the ops of the same batch.
 *
 * <p>A writer of rules without parameter queries that read tables does nothing here ({@link #isActive()}). Only rows
 * of the transaction's partitions are read or written. Stateless apart from the group and tables; the connection
 * is the caller's.
 */
final class ParameterLookups {

    /**
     * One version to append: {@code key}'s parameters under {@code lookup} become {@code parameters}, or it leaves
     * the lookup when {@code parameters} is null.
     */
    record Version(String lookup, SourceKey key, int partition, String parameters) {
        Version {
            Objects.requireNonNull(lookup, "lookup");
            Objects.requireNonNull(key, "key");
        }
    }

    private static final String CURRENT = "SELECT DISTINCT ON (source_key, lookup) source_key, lookup, parameters"
        + " FROM tributary.bucket_parameters WHERE group_id = ? AND source_key = ANY(?::bytea[])"
        + " ORDER BY source_key, lookup, op_id DESC";
    private static final String CURRENT_OF_TABLE = "SELECT DISTINCT ON (source_key, lookup) source_key, lookup,"
        + " parameters FROM tributary.bucket_parameters WHERE group_id = ? AND source_key >= ? AND source_key < ?"
        + " AND source_partition = ? ORDER BY source_key, lookup, op_id DESC";
    private static final String APPEND = "INSERT INTO tributary.bucket_parameters"
        + " (group_id, lookup, source_key, op_id, source_partition, parameters)"
        + " SELECT ?, u.l, u.k, u.o, u.p, u.v FROM unnest(?::text[], ?::bytea[], ?::bigint[], ?::int[], ?::text[])"
        + " AS u(l, k, o, p, v)";

    private final long groupId;
    private final Map<TableId, TableKeyRange> tables;

    private ParameterLookups(long groupId, Map<TableId, TableKeyRange> tables) {
        this.groupId = groupId;
        this.tables = Map.copyOf(tables);
    }

    /** Lookups of group {@code groupId} for rows of {@code parameterTables} ({@code schema.table}). */
    static ParameterLookups of(long groupId, Collection<String> parameterTables) {
        Map<TableId, TableKeyRange> tables = new LinkedHashMap<>();
        for (String name : parameterTables) {
            SourceTable table = SourceTable.parse(name);
            TableId id = new TableId(table.schema(), table.name());
            tables.put(id, TableKeyRange.of(id));
        }
        return new ParameterLookups(groupId, tables);
    }

    /** Whether any table's rows make lookups. */
    boolean isActive() {
        return !tables.isEmpty();
    }

    /**
     * The versions of each of {@code run} (batches in apply order; a truncation only at the end), each planned
     * against the lookups as the batches before it left them.
     */
    List<List<Version>> plan(Connection connection, List<PreparedBatch> run) throws SQLException {
        List<List<Version>> versions = new ArrayList<>(run.size());
        if (!isActive()) {
            run.forEach(batch -> versions.add(List.of()));
            return versions;
        }
        Set<SourceKey> keys = new LinkedHashSet<>();
        for (PreparedBatch batch : run) {
            for (RowChange change : batch.changes()) {
                if (covers(change.key())) {
                    keys.add(change.key());
                }
            }
        }
        Map<SourceKey, Map<String, String>> current = keys.isEmpty() ? new HashMap<>() : current(connection, keys);
        for (PreparedBatch batch : run) {
            List<Version> batchVersions = new ArrayList<>();
            for (RowChange change : batch.changes()) {
                if (covers(change.key())) {
                    Map<String, String> after = stored(change.parameters());
                    diff(change.key(), batch.partition(), current.getOrDefault(change.key(), Map.of()), after,
                        batchVersions);
                    current.put(change.key(), after);
                }
            }
            if (batch.truncate().isPresent()) {
                truncate(connection, batch.partition(), batch.truncate().get(), current, batchVersions);
            }
            versions.add(batchVersions);
        }
        return versions;
    }

    /** Appends {@code versions[i]} with op id {@code opIds[i]}. */
    void write(Connection connection, List<Version> versions, long[] opIds) throws SQLException {
        if (versions.isEmpty()) {
            return;
        }
        String[] lookups = new String[versions.size()];
        byte[][] keys = new byte[versions.size()][];
        Integer[] partitions = new Integer[versions.size()];
        String[] parameters = new String[versions.size()];
        for (int i = 0; i < lookups.length; i++) {
            Version version = versions.get(i);
            lookups[i] = version.lookup();
            keys[i] = version.key().unsafeBytes();
            partitions[i] = version.partition();
            parameters[i] = version.parameters();
        }
        try (PreparedStatement append = connection.prepareStatement(APPEND)) {
            append.setLong(1, groupId);
            append.setArray(2, connection.createArrayOf("text", lookups));
            append.setArray(3, connection.createArrayOf("bytea", keys));
            append.setArray(4, connection.unwrap(org.postgresql.PGConnection.class).createArrayOf("int8",
                Arrays.copyOf(opIds, versions.size())));
            append.setArray(5, connection.createArrayOf("int4", partitions));
            append.setArray(6, connection.createArrayOf("text", parameters));
            append.executeUpdate();
        }
    }

    private static void diff(SourceKey key, int partition, Map<String, String> before, Map<String, String> after,
                             List<Version> out) {
        after.forEach((lookup, parameters) -> {
            if (!parameters.equals(before.get(lookup))) {
                out.add(new Version(lookup, key, partition, parameters));
            }
        });
        before.keySet().stream().filter(lookup -> !after.containsKey(lookup))
            .forEach(lookup -> out.add(new Version(lookup, key, partition, null)));
    }

    private void truncate(Connection connection, int partition, TableTruncate marker,
                          Map<SourceKey, Map<String, String>> current, List<Version> out) throws SQLException {
        TableKeyRange range = tables.get(marker.table());
        if (range == null) {
            return;
        }
        Map<SourceKey, Map<String, String>> stored = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement(CURRENT_OF_TABLE)) {
            select.setLong(1, groupId);
            select.setBytes(2, range.from());
            select.setBytes(3, range.to());
            select.setInt(4, partition);
            read(select, stored);
        }
        for (Map.Entry<SourceKey, Map<String, String>> entry : current.entrySet()) {
            if (within(range, entry.getKey())) {
                stored.put(entry.getKey(), entry.getValue());
            }
        }
        for (Map.Entry<SourceKey, Map<String, String>> entry : stored.entrySet()) {
            diff(entry.getKey(), partition, entry.getValue(), Map.of(), out);
            current.put(entry.getKey(), Map.of());
        }
    }

    private Map<SourceKey, Map<String, String>> current(Connection connection, Set<SourceKey> keys)
        throws SQLException {
        byte[][] bytes = keys.stream().map(SourceKey::unsafeBytes).toArray(byte[][]::new);
        Map<SourceKey, Map<String, String>> current = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(CURRENT)) {
            select.setLong(1, groupId);
            select.setArray(2, connection.createArrayOf("bytea", bytes));
            read(select, current);
        }
        return current;
    }

    /** Reads (key, lookup, parameters) rows into {@code into}, leaving out lookups the key already left. */
    private static void read(PreparedStatement select, Map<SourceKey, Map<String, String>> into)
        throws SQLException {
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                String parameters = rs.getString(3);
                if (parameters != null) {
                    into.computeIfAbsent(SourceKey.of(rs.getBytes(1)), k -> new LinkedHashMap<>())
                        .put(rs.getString(2), parameters);
                }
            }
        }
    }

    private boolean covers(SourceKey key) {
        for (TableKeyRange range : tables.values()) {
            if (within(range, key)) {
                return true;
            }
        }
        return false;
    }

    private static boolean within(TableKeyRange range, SourceKey key) {
        byte[] bytes = key.unsafeBytes();
        return Arrays.compareUnsigned(bytes, range.from()) >= 0 && Arrays.compareUnsigned(bytes, range.to()) < 0;
    }

    /** The parameter rows of a change as stored: lookup to parameters. */
    private static Map<String, String> stored(List<ParameterRow> rows) {
        Map<String, String> stored = new LinkedHashMap<>();
        rows.forEach(row -> stored.put(row.lookup(), row.parameters()));
        return stored;
    }
}
