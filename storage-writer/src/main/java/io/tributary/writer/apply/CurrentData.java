package io.tributary.writer.apply;

import io.tributary.topics.messages.TableTruncate;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;

/**
 * The statements of {@link BatchApplier} on {@code tributary.current_data}: update the stored rows and read what they
 * held, copy in the new ones, delete what is gone, delete a truncated table's rows; each over many keys at once.
 * Runs inside the caller's transaction.
 *
 * <p>Rows of keys that are all new (a replay, a snapshot) are copied in ({@link BinaryCopy}: Postgres inserts them
 * in multi-row batches, logs them per page and sends nothing back) when the caller expects them new; a key that is
 * stored already fails that copy with a unique violation ({@link KeysStoredException}), and the caller applies the
 * transaction again looking keys up: one statement reads the stored rows among the keys (their memberships and
 * partition), a second updates those whose memberships or partition the change moves, if any, and the keys the read
 * did not find are copied in (a streamed update is one index lookup, with no speculative insertion). A stored row
 * whose memberships and partition the change leaves as they are is not rewritten: most updates keep a row in its
 * buckets, and rewriting it cost the storage server a row version, its WAL and later vacuum for nothing
 * ({@code source_offset} stays the offset of the record that set what the row holds).
 *
 * <p>Stateless apart from the group id.
 */
final class CurrentData {

    /** The memberships and partition of every stored key among the keys. */
    private static final String READ_STORED = "SELECT source_key, buckets, source_partition FROM tributary.current_data"
        + " WHERE group_id = ? AND source_key = ANY(?::bytea[])";
    /** Updates the stored rows of the keys whose memberships or partition differ. */
    private static final String UPDATE_CHANGED = "UPDATE tributary.current_data c SET buckets = u.b,"
        + " source_partition = u.p, source_offset = u.o FROM unnest(?::bytea[], ?::text[], ?::int[], ?::bigint[])"
        + " AS u(k, b, p, o) WHERE c.group_id = ? AND c.source_key = u.k";
    private static final String DELETE_GONE = "DELETE FROM tributary.current_data"
        + " WHERE group_id = ? AND source_key = ANY(?::bytea[]) RETURNING source_key, buckets";
    private static final String DELETE_TABLE = "DELETE FROM tributary.current_data"
        + " WHERE group_id = ? AND source_partition = ? AND source_key >= ? AND source_key < ? RETURNING buckets";

    /** The columns a copy fills, after the group's own table: its partition of {@code current_data}. */
    private static final String COPY_COLUMNS = " (group_id, source_key, buckets, source_partition, source_offset)";
    private static final String UNIQUE_VIOLATION = "23505";

    private final long groupId;
    /**
     * The copy's target: the group's partition itself, so Postgres does not route each row through the partitioned
     * table (its partition key, the group, is the same for every row).
     */
    private final String copyTarget;

    CurrentData(long groupId) {
        this.groupId = groupId;
        this.copyTarget = "tributary.current_data_g" + groupId + COPY_COLUMNS;
    }

    /**
     * A key the caller expected new is stored: the transaction is aborted and must be applied again without
     * expecting new keys.
     */
    static final class KeysStoredException extends Exception {
        private static final long serialVersionUID = 1L;

        KeysStoredException(SQLException cause) {
            super("A key expected new is stored in current_data", cause);
        }
    }

    /**
     * Writes {@code changes} (one per key, each of partition {@code partitionOf}) and returns what was stored
     * before for their keys (a key absent from the answer was not stored).
     *
     * @param expectNew copy the rows in, as if no key were stored (see the class documentation)
     * @throws KeysStoredException if {@code expectNew} and a key is stored (the transaction is aborted)
     */
    Map<SourceKey, List<Membership>> write(Connection connection, List<RowChange> changes,
                                           Map<SourceKey, Integer> partitionOf, boolean expectNew)
        throws SQLException, KeysStoredException {
        List<RowChange> present = new ArrayList<>();
        List<RowChange> absent = new ArrayList<>();
        for (RowChange change : changes) {
            (change.isAbsent() ? absent : present).add(change);
        }
        Map<SourceKey, List<Membership>> previous = new HashMap<>();
        if (!present.isEmpty() && expectNew) {
            copyNew(connection, present, partitionOf);
        } else if (!present.isEmpty()) {
            previous.putAll(updateStored(connection, present, partitionOf));
            if (previous.size() < present.size()) {
                List<RowChange> fresh = new ArrayList<>(present.size() - previous.size());
                for (RowChange change : present) {
                    if (!previous.containsKey(change.key())) {
                        fresh.add(change);
                    }
                }
                copyNew(connection, fresh, partitionOf);
            }
        }
        if (!absent.isEmpty()) {
            previous.putAll(deleteGone(connection, absent));
        }
        return previous;
    }

    /** Copies in the rows of {@code rows}, every key new. */
    private void copyNew(Connection connection, List<RowChange> rows, Map<SourceKey, Integer> partitionOf)
        throws SQLException, KeysStoredException {
        try (BinaryCopy copy = BinaryCopy.open(connection, copyTarget)) {
            for (RowChange row : rows) {
                copy.tuple(5);
                copy.int8(groupId);
                copy.bytea(row.key().unsafeBytes());
                copy.text(row.memberships());
                copy.int4(partitionOf.get(row.key()));
                copy.int8(row.offset());
            }
            copy.finish();
        } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw new KeysStoredException(e);
            }
            throw e;
        }
    }

    /**
     * Updates the stored rows among the keys of {@code rows} that change; returns the memberships every stored one
     * held before, by key (a key absent from the answer is not stored). One read of every key, then one update of
     * those whose memberships or partition differ, if any (most updates keep a row in its buckets): each key is
     * looked up once, and only the changed ones are sent again.
     */
    private Map<SourceKey, List<Membership>> updateStored(Connection connection, List<RowChange> rows,
                                                          Map<SourceKey, Integer> partitionOf) throws SQLException {
        Map<SourceKey, List<Membership>> stored = new HashMap<>();
        Map<SourceKey, RowChange> byKey = new HashMap<>();
        rows.forEach(row -> byKey.put(row.key(), row));
        List<RowChange> changed = new ArrayList<>();
        try (PreparedStatement read = connection.prepareStatement(READ_STORED)) {
            read.setLong(1, groupId);
            read.setArray(2, keys(connection, rows));
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    SourceKey key = SourceKey.ofOwned(rs.getBytes(1));
                    String buckets = rs.getString(2);
                    stored.put(key, Memberships.decode(buckets));
                    RowChange row = byKey.get(key);
                    if (!row.memberships().equals(buckets) || rs.getInt(3) != partitionOf.get(key)) {
                        changed.add(row);
                    }
                }
            }
        }
        if (!changed.isEmpty()) {
            try (PreparedStatement update = connection.prepareStatement(UPDATE_CHANGED)) {
                update.setArray(1, keys(connection, changed));
                update.setArray(2, memberships(connection, changed));
                update.setArray(3, partitions(connection, changed, partitionOf));
                update.setArray(4, offsets(connection, changed));
                update.setLong(5, groupId);
                update.executeUpdate();
            }
        }
        return stored;
    }

    private Map<SourceKey, List<Membership>> deleteGone(Connection connection, List<RowChange> rows)
        throws SQLException {
        Map<SourceKey, List<Membership>> gone = new HashMap<>();
        try (PreparedStatement delete = connection.prepareStatement(DELETE_GONE)) {
            delete.setLong(1, groupId);
            delete.setArray(2, keys(connection, rows));
            try (ResultSet rs = delete.executeQuery()) {
                while (rs.next()) {
                    gone.put(SourceKey.of(rs.getBytes(1)), Memberships.decode(rs.getString(2)));
                }
            }
        }
        return gone;
    }

    /** Deletes the rows of {@code marker}'s table in {@code partition}; returns their REMOVE ops. */
    List<BucketOp> truncate(Connection connection, int partition, TableTruncate marker) throws SQLException {
        TableKeyRange range = TableKeyRange.of(marker.table());
        List<List<Membership>> gone = new ArrayList<>();
        try (PreparedStatement delete = connection.prepareStatement(DELETE_TABLE)) {
            delete.setLong(1, groupId);
            delete.setInt(2, partition);
            delete.setBytes(3, range.from());
            delete.setBytes(4, range.to());
            try (ResultSet rs = delete.executeQuery()) {
                while (rs.next()) {
                    gone.add(Memberships.decode(rs.getString(1)));
                }
            }
        }
        return OpPlanner.removeAll(gone);
    }

    private static Array keys(Connection connection, List<RowChange> rows) throws SQLException {
        byte[][] keys = new byte[rows.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = rows.get(i).key().unsafeBytes();
        }
        return connection.createArrayOf("bytea", keys);
    }

    private static Array memberships(Connection connection, List<RowChange> rows) throws SQLException {
        String[] memberships = new String[rows.size()];
        for (int i = 0; i < memberships.length; i++) {
            memberships[i] = rows.get(i).memberships();
        }
        return connection.createArrayOf("text", memberships);
    }

    private static Array partitions(Connection connection, List<RowChange> rows,
                                    Map<SourceKey, Integer> partitionOf) throws SQLException {
        Integer[] partitions = new Integer[rows.size()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = partitionOf.get(rows.get(i).key());
        }
        return connection.createArrayOf("int4", partitions);
    }

    private static Array offsets(Connection connection, List<RowChange> rows) throws SQLException {
        long[] offsets = new long[rows.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = rows.get(i).offset();
        }
        return connection.unwrap(PGConnection.class).createArrayOf("int8", offsets);
    }
}
