package io.tributary.writer.apply;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.postgresql.PGConnection;

/**
 * Applies one {@link PreparedBatch} in one transaction: the batch's bucket ops, {@code current_data}, the
 * partition's stored offset, table readiness and, if the batch ends with a barrier, the seal of its epoch. Either
 * all of it commits or none.
 *
 * <p>The transaction first moves the partition's stored offset under its fencing token
 * ({@code UPDATE ... WHERE fencing_token = mine AND next_offset <= first offset of the batch}), which also locks
 * that row: if another writer claimed the partition since, nothing is written and {@link FencedException} is
 * thrown; if it claims it meanwhile, its claim waits for this commit and then reads the new offset. A batch whose
 * records the stored offset already covers (a retry after a commit whose acknowledgement was lost) is not applied
 * again: its outcome is read back instead. Rows then go through the insert-if-absent fast path:
 * {@code INSERT ... ON CONFLICT DO NOTHING RETURNING} tells which keys are new (PUT only, no lookup); only the
 * others are looked up, diffed ({@link OpPlanner}) and updated. Rows that are gone are deleted with
 * {@code DELETE ... RETURNING} their memberships. Op ids come from {@code tributary.op_id_seq} in one block, ops
 * are written with {@code COPY}. No statement touches a row another partition's writer writes.
 *
 * <p>Stateless apart from the group id; the connection (auto-commit off) belongs to the caller's thread.
 */
public final class BatchApplier {

    private static final String FENCE = "UPDATE tributary.partition_offsets SET next_offset = ?"
        + " WHERE group_id = ? AND partition = ? AND fencing_token = ? AND next_offset <= ? RETURNING max_op_id";
    private static final String STORED = "SELECT fencing_token, next_offset, max_op_id,"
        + " (SELECT max(epoch) FROM tributary.sealed_epochs s WHERE s.group_id = o.group_id"
        + " AND s.partition = o.partition) FROM tributary.partition_offsets o WHERE group_id = ? AND partition = ?";
    private static final String INSERT_NEW = "INSERT INTO tributary.current_data"
        + " (group_id, source_key, buckets, source_partition, source_offset)"
        + " SELECT ?, u.k, u.b, ?, u.o FROM unnest(?::bytea[], ?::text[], ?::bigint[]) AS u(k, b, o)"
        + " ON CONFLICT (group_id, source_key) DO NOTHING RETURNING source_key";
    private static final String SELECT_STORED = "SELECT source_key, buckets FROM tributary.current_data"
        + " WHERE group_id = ? AND source_key = ANY(?::bytea[])";
    private static final String UPDATE_STORED = "UPDATE tributary.current_data c"
        + " SET buckets = u.b, source_partition = ?, source_offset = u.o"
        + " FROM unnest(?::bytea[], ?::text[], ?::bigint[]) AS u(k, b, o)"
        + " WHERE c.group_id = ? AND c.source_key = u.k";
    private static final String DELETE_GONE = "DELETE FROM tributary.current_data"
        + " WHERE group_id = ? AND source_key = ANY(?::bytea[]) RETURNING source_key, buckets";
    private static final String DELETE_TABLE = "DELETE FROM tributary.current_data"
        + " WHERE group_id = ? AND source_partition = ? AND source_key >= ? AND source_key < ? RETURNING buckets";
    private static final String ALLOCATE = "SELECT nextval('tributary.op_id_seq') FROM generate_series(1, ?)";
    private static final String MAX_OP = "UPDATE tributary.partition_offsets SET max_op_id = ?"
        + " WHERE group_id = ? AND partition = ?";
    private static final String READY = "INSERT INTO tributary.table_readiness"
        + " (group_id, partition, table_schema, table_name, window_id, high_watermark, ready_after_epoch)"
        + " VALUES (?, ?, ?, ?, ?, ?::pg_lsn, ?) ON CONFLICT (group_id, partition, table_schema, table_name)"
        + " DO UPDATE SET window_id = EXCLUDED.window_id, high_watermark = EXCLUDED.high_watermark,"
        + " ready_after_epoch = EXCLUDED.ready_after_epoch";
    private static final String SEAL = "INSERT INTO tributary.sealed_epochs"
        + " (group_id, partition, epoch, lsn, max_op_id) VALUES (?, ?, ?, ?::pg_lsn, ?)";

    private final long groupId;

    /** An applier for group {@code groupId}. */
    public BatchApplier(long groupId) {
        this.groupId = groupId;
    }

    /**
     * Applies {@code batch} and commits; rolls back on any failure.
     *
     * @throws FencedException if {@code target}'s claim is stale (nothing was written)
     * @throws SQLException    on a database failure (nothing was written; classify it with {@code SqlErrors})
     */
    public ApplyResult apply(Connection connection, ApplyTarget target, PreparedBatch batch)
        throws SQLException, FencedException {
        if (target.groupId() != groupId || target.partition() != batch.partition()) {
            throw new IllegalArgumentException("Batch of " + batch.describe() + " does not belong to " + target);
        }
        try {
            Optional<ApplyResult> applied = alreadyApplied(connection, target, batch);
            if (applied.isPresent()) {
                connection.rollback();
                return applied.get();
            }
            ApplyResult result = applyInTransaction(connection, target, batch);
            connection.commit();
            return result;
        } catch (SQLException | FencedException | RuntimeException e) {
            rollbackQuietly(connection, e);
            throw e;
        }
    }

    /**
     * The outcome of {@code batch} if it is already committed: a retry after a commit whose acknowledgement was lost
     * (connection loss) must not apply it twice. The check locks nothing; {@link #fence} re-checks under the lock.
     */
    private Optional<ApplyResult> alreadyApplied(Connection connection, ApplyTarget target, PreparedBatch batch)
        throws SQLException, FencedException {
        try (PreparedStatement select = connection.prepareStatement(STORED)) {
            select.setLong(1, groupId);
            select.setInt(2, target.partition());
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next() || rs.getLong(1) != target.fencingToken()) {
                    throw new FencedException(groupId, target.partition(), target.fencingToken());
                }
                long stored = rs.getLong(2);
                if (stored <= batch.firstOffset()) {
                    return Optional.empty();
                }
                if (stored < batch.nextOffset()) {
                    throw new IllegalStateException("Stored offset " + stored + " of partition " + target.partition()
                        + " falls inside " + batch.describe() + ": batches of one claim must not overlap");
                }
                long sealed = rs.getLong(4);
                OptionalLong newSeal = !rs.wasNull() && sealed > target.sealedEpoch()
                    ? OptionalLong.of(sealed) : OptionalLong.empty();
                return Optional.of(new ApplyResult(0, rs.getLong(3), newSeal, stored));
            }
        }
    }

    private ApplyResult applyInTransaction(Connection connection, ApplyTarget target, PreparedBatch batch)
        throws SQLException, FencedException {
        long maxOpId = fence(connection, target, batch);
        List<BucketOp> ops = rowOps(connection, target.partition(), batch.changes());
        if (batch.truncate().isPresent()) {
            ops.addAll(truncate(connection, target.partition(), batch.truncate().get()));
        }
        if (!ops.isEmpty()) {
            long[] ids = allocate(connection, ops.size());
            OpCopy.write(connection, groupId, ops, ids);
            maxOpId = Math.max(maxOpId, ids[ids.length - 1]);
            update(connection, MAX_OP, maxOpId, groupId, target.partition());
        }
        for (TableReady marker : batch.ready()) {
            markReady(connection, target, marker);
        }
        OptionalLong sealed = OptionalLong.empty();
        if (batch.barrier().isPresent() && batch.barrier().get().epoch() > target.sealedEpoch()) {
            Barrier barrier = batch.barrier().get();
            update(connection, SEAL, groupId, target.partition(), barrier.epoch(), barrier.lsn().toString(), maxOpId);
            sealed = OptionalLong.of(barrier.epoch());
        }
        return new ApplyResult(ops.size(), maxOpId, sealed, batch.nextOffset());
    }

    private long fence(Connection connection, ApplyTarget target, PreparedBatch batch)
        throws SQLException, FencedException {
        try (PreparedStatement fence = connection.prepareStatement(FENCE)) {
            fence.setLong(1, batch.nextOffset());
            fence.setLong(2, groupId);
            fence.setInt(3, target.partition());
            fence.setLong(4, target.fencingToken());
            fence.setLong(5, batch.firstOffset());
            try (ResultSet rs = fence.executeQuery()) {
                if (!rs.next()) {
                    throw new FencedException(groupId, target.partition(), target.fencingToken());
                }
                return rs.getLong(1);
            }
        }
    }

    private List<BucketOp> rowOps(Connection connection, int partition, List<RowChange> changes)
        throws SQLException {
        List<RowChange> present = new ArrayList<>();
        List<RowChange> absent = new ArrayList<>();
        for (RowChange change : changes) {
            (change.isAbsent() ? absent : present).add(change);
        }
        Map<SourceKey, List<Membership>> previous = new HashMap<>();
        if (!present.isEmpty()) {
            Set<SourceKey> inserted = insertNew(connection, partition, present);
            List<RowChange> stored = new ArrayList<>();
            for (RowChange change : present) {
                if (!inserted.contains(change.key())) {
                    stored.add(change);
                }
            }
            if (!stored.isEmpty()) {
                previous.putAll(selectStored(connection, stored));
                updateStored(connection, partition, stored);
            }
        }
        if (!absent.isEmpty()) {
            previous.putAll(deleteGone(connection, absent));
        }
        return OpPlanner.plan(changes, previous);
    }

    private Set<SourceKey> insertNew(Connection connection, int partition, List<RowChange> rows)
        throws SQLException {
        Set<SourceKey> inserted = new HashSet<>();
        try (PreparedStatement insert = connection.prepareStatement(INSERT_NEW)) {
            insert.setLong(1, groupId);
            insert.setInt(2, partition);
            insert.setArray(3, keys(connection, rows));
            insert.setArray(4, memberships(connection, rows));
            insert.setArray(5, offsets(connection, rows));
            try (ResultSet rs = insert.executeQuery()) {
                while (rs.next()) {
                    inserted.add(SourceKey.of(rs.getBytes(1)));
                }
            }
        }
        return inserted;
    }

    private Map<SourceKey, List<Membership>> selectStored(Connection connection, List<RowChange> rows)
        throws SQLException {
        Map<SourceKey, List<Membership>> stored = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(SELECT_STORED)) {
            select.setLong(1, groupId);
            select.setArray(2, keys(connection, rows));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    stored.put(SourceKey.of(rs.getBytes(1)), Memberships.decode(rs.getString(2)));
                }
            }
        }
        return stored;
    }

    private void updateStored(Connection connection, int partition, List<RowChange> rows) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(UPDATE_STORED)) {
            update.setInt(1, partition);
            update.setArray(2, keys(connection, rows));
            update.setArray(3, memberships(connection, rows));
            update.setArray(4, offsets(connection, rows));
            update.setLong(5, groupId);
            update.executeUpdate();
        }
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

    private List<BucketOp> truncate(Connection connection, int partition, TableTruncate marker) throws SQLException {
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

    private static long[] allocate(Connection connection, int count) throws SQLException {
        long[] ids = new long[count];
        try (PreparedStatement allocate = connection.prepareStatement(ALLOCATE)) {
            allocate.setInt(1, count);
            try (ResultSet rs = allocate.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    ids[i++] = rs.getLong(1);
                }
                if (i != count) {
                    throw new SQLException("Allocated " + i + " op ids instead of " + count);
                }
            }
        }
        Arrays.sort(ids);
        return ids;
    }

    private void markReady(Connection connection, ApplyTarget target, TableReady marker) throws SQLException {
        update(connection, READY, groupId, target.partition(), marker.table().schema(), marker.table().name(),
            marker.windowId(), marker.highWatermark().toString(), target.sealedEpoch());
    }

    private static void update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
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

    private static Array offsets(Connection connection, List<RowChange> rows) throws SQLException {
        long[] offsets = new long[rows.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = rows.get(i).offset();
        }
        return connection.unwrap(PGConnection.class).createArrayOf("int8", offsets);
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
