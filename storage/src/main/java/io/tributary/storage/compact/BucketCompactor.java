package io.tributary.storage.compact;

import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts one group's {@code bucket_data} up to its published checkpoint, the way PowerSync compacts buckets.
 *
 * <ol>
 *   <li><b>MOVE.</b> Each bucket is read newest op first, in pages of {@code batchOps}. A PUT or REMOVE of a row
 *       (output table and row id) that a later op of the bucket supersedes becomes a MOVE: same op id, same
 *       checksum, data cleared. Updates go in batches of at most {@code batchOps} ops, each its own statement.</li>
 *   <li><b>CLEAR.</b> When a bucket starts with more than one op that is not a live PUT (MOVE, REMOVE), those
 *       ops up to the highest of them fold into one CLEAR op at that op id whose checksum is their wrapping
 *       32-bit sum: a repeatable read transaction per {@code batchOps} ops deletes them and inserts the CLEAR
 *       (a later pass folds the previous CLEAR in with the next ops).</li>
 *   <li><b>Parameter lookups.</b> Superseded versions of the group's parameter lookups are deleted, see
 *       {@link ParameterCompactor}.</li>
 * </ol>
 *
 * <p>Before its first rewrite a pass raises the group's data fence to the checkpoint ({@link CompactionFence}),
 * so the sync API does not complete an older checkpoint whose ops it read partly after the rewrite.
 *
 * <p>Every bucket's sum over {@code (0, C]} is the same for every checkpoint C, before and after, and a client
 * in the middle of a download stays right: the ops it already holds are still summed in, a CLEAR it reads makes it
 * drop the bucket's earlier ops, and each row's latest op is never touched. Only ops at or below the published
 * checkpoint are read or written, all committed; storage writers only append above it and never wait on a
 * compaction. One compaction per group runs at a time (a session advisory lock); another finds it held and does
 * nothing.
 *
 * <p>Memory is bounded: at most {@code trackedRows} row keys per bucket are remembered; ops of rows beyond that
 * stay as they are. Not thread-safe; one instance per caller.
 */
public final class BucketCompactor {

    /** The default of {@code batchOps}: ops read per page, updated per statement and folded per transaction. */
    public static final int DEFAULT_BATCH_OPS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(BucketCompactor.class);
    private static final int LOCK_CLASS = 0x636f_6d70; // "comp"
    private static final int DEFAULT_TRACKED_ROWS = 1_000_000;
    /**
     * Superseded ops below the bucket's lowest live PUT so far wait (8 bytes each) to see whether the CLEAR takes
     * them, which then deletes them without making them MOVEs first; past this many they become MOVEs at once.
     */
    private static final int MAX_PENDING_MOVES = 4_000_000;
    private static final long MASK = 0xFFFF_FFFFL;
    private static final short PUT = 1;
    private static final short REMOVE = 2;
    private static final short MOVE = 3;
    private static final short CLEAR = 4;

    private final int batchOps;
    private final int trackedRows;

    private BucketCompactor(int batchOps, int trackedRows) {
        if (batchOps <= 0 || trackedRows <= 0) {
            throw new IllegalArgumentException("Batch size and tracked rows are > 0: " + batchOps + ", "
                + trackedRows);
        }
        this.batchOps = batchOps;
        this.trackedRows = trackedRows;
    }

    /** A compactor working in passes of {@code batchOps} ops, &gt; 0. */
    public static BucketCompactor ofBatch(int batchOps) {
        return new BucketCompactor(batchOps, DEFAULT_TRACKED_ROWS);
    }

    /**
     * Compacts every bucket of group {@code groupId} up to its published checkpoint. {@code connection} is in
     * auto-commit mode and stays so; each pass commits on its own.
     */
    public CompactionResult compact(Connection connection, long groupId) throws SQLException {
        if (groupId <= 0) {
            throw new IllegalArgumentException("Group ids are > 0: " + groupId);
        }
        Optional<Checkpoint> checkpoint = Checkpoints.current(connection, groupId);
        if (checkpoint.isEmpty() || !lock(connection, groupId, "pg_try_advisory_lock")) {
            return CompactionResult.none();
        }
        try {
            Pass pass = new Pass(connection, groupId, checkpoint.get().opId());
            for (String bucket = pass.nextBucket(""); bucket != null; bucket = pass.nextBucket(bucket)) {
                pass.compact(bucket);
            }
            long parameterVersions = new ParameterCompactor(batchOps).compact(connection, groupId, pass.checkpoint);
            CompactionResult result = new CompactionResult(pass.checkpoint, pass.buckets, pass.moved, pass.cleared,
                parameterVersions);
            LOG.info("Compacted group {} up to op {}: {} buckets, {} ops moved, {} ops folded into CLEAR, {} parameter"
                + " lookup versions deleted", groupId, result.checkpoint(), result.buckets(), result.moved(),
                result.cleared(), result.parameterVersions());
            return result;
        } finally {
            lock(connection, groupId, "pg_advisory_unlock");
        }
    }

    private static boolean lock(Connection connection, long groupId, String function) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT " + function + "(?, ?)")) {
            statement.setInt(1, LOCK_CLASS);
            statement.setInt(2, (int) groupId);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** One compaction of a group: its connection, bounds and figures. */
    private final class Pass {
        private final Connection connection;
        private final long groupId;
        private final long checkpoint;
        private final String table;
        private long buckets;
        private long moved;
        private long cleared;
        private boolean fenced;

        Pass(Connection connection, long groupId, long checkpoint) {
            this.connection = connection;
            this.groupId = groupId;
            this.checkpoint = checkpoint;
            this.table = "tributary.bucket_data_g" + groupId;
        }

        /**
         * Raises the group's data fence to the checkpoint, committed before the pass's first rewrite: a download
         * that read a rewritten op then finds it raised ({@link CompactionFence}).
         */
        private void fence() throws SQLException {
            if (fenced) {
                return;
            }
            CompactionFence.raiseData(connection, groupId, checkpoint);
            fenced = true;
        }

        /** The first bucket after {@code after} in name order (one index probe), null after the last. */
        String nextBucket(String after) throws SQLException {
            try (PreparedStatement select = connection.prepareStatement("SELECT bucket FROM " + table
                + " WHERE bucket > ? ORDER BY bucket LIMIT 1")) {
                select.setString(1, after);
                try (ResultSet rs = select.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        }

        void compact(String bucket) throws SQLException {
            buckets++;
            Set<String> seen = new HashSet<>();
            List<Long> moves = new ArrayList<>();
            PendingMoves pending = new PendingMoves();
            long below = checkpoint + 1;
            long lastNotPut = 0;
            long opsSincePut = 0;
            long lowestLivePut = Long.MAX_VALUE;
            while (true) {
                int read = 0;
                try (PreparedStatement select = connection.prepareStatement("SELECT op_id, op, source_table, row_id"
                    + " FROM " + table + " WHERE bucket = ? AND op_id < ? ORDER BY op_id DESC LIMIT ?")) {
                    select.setString(1, bucket);
                    select.setLong(2, below);
                    select.setInt(3, batchOps);
                    try (ResultSet rs = select.executeQuery()) {
                        while (rs.next()) {
                            read++;
                            long opId = rs.getLong(1);
                            short op = rs.getShort(2);
                            below = opId;
                            boolean livePut = op == PUT;
                            if (op == PUT || op == REMOVE) {
                                String row = rs.getString(3).length() + ":" + rs.getString(3) + rs.getString(4);
                                if (seen.contains(row)) {
                                    livePut = false;
                                    pending.add(opId);
                                } else if (seen.size() < trackedRows) {
                                    seen.add(row);
                                }
                            }
                            if (livePut) {
                                lastNotPut = 0;
                                opsSincePut = 0;
                                lowestLivePut = opId;
                            } else if (op != CLEAR) {
                                lastNotPut = lastNotPut == 0 ? opId : lastNotPut;
                                opsSincePut++;
                            }
                        }
                    }
                }
                pending.takeAbove(lowestLivePut, moves);
                if (pending.size() > MAX_PENDING_MOVES) {
                    pending.takeAbove(0, moves);
                }
                if (moves.size() >= batchOps) {
                    flushMoves(bucket, moves);
                }
                if (read < batchOps) {
                    break;
                }
            }
            boolean fold = lastNotPut > 0 && opsSincePut > 1;
            pending.takeAbove(fold ? lastNotPut : 0, moves);
            flushMoves(bucket, moves);
            if (fold) {
                clear(bucket, lastNotPut, pending.sorted());
            }
        }

        /** Turns {@code moves} into MOVEs, in statements of at most {@code batchOps} ops, and empties it. */
        private void flushMoves(String bucket, List<Long> moves) throws SQLException {
            if (!moves.isEmpty()) {
                fence();
            }
            for (int from = 0; from < moves.size(); from += batchOps) {
                List<Long> part = moves.subList(from, Math.min(moves.size(), from + batchOps));
                try (PreparedStatement update = connection.prepareStatement("UPDATE " + table + " SET op = " + MOVE
                    + ", data = NULL WHERE bucket = ? AND op_id = ANY (?) AND op IN (" + PUT + ", " + REMOVE + ")")) {
                    update.setString(1, bucket);
                    update.setArray(2, connection.createArrayOf("bigint", part.toArray()));
                    moved += update.executeUpdate();
                }
            }
            moves.clear();
        }

        /**
         * Folds the ops of {@code bucket} up to {@code upTo} into one CLEAR, in bounded passes; none of them is a
         * row's latest op, and the PUTs among them are exactly {@code supersededPuts} (ascending op ids).
         */
        private void clear(String bucket, long upTo, long[] supersededPuts) throws SQLException {
            fence();
            int isolation = connection.getTransactionIsolation();
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Fold fold = new Fold();
                while (foldOnce(bucket, upTo, supersededPuts, fold)) {
                    connection.commit();
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setTransactionIsolation(isolation);
                connection.setAutoCommit(true);
            }
        }

        /**
         * One CLEAR pass over the ops after the CLEAR the previous pass wrote ({@code fold}, from the bucket's
         * start the first time, which takes in a CLEAR of an earlier compaction); false when nothing is left to
         * fold at or below {@code upTo}.
         */
        private boolean foldOnce(String bucket, long upTo, long[] supersededPuts, Fold fold) throws SQLException {
            long checksum = fold.checksum;
            long last = 0;
            long folded = 0;
            try (PreparedStatement select = connection.prepareStatement("SELECT op_id, op, checksum FROM " + table
                + " WHERE bucket = ? AND op_id > ? AND op_id <= ? ORDER BY op_id LIMIT ?")) {
                select.setString(1, bucket);
                select.setLong(2, fold.opId);
                select.setLong(3, upTo);
                select.setInt(4, batchOps);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        long opId = rs.getLong(1);
                        short op = rs.getShort(2);
                        if (op == PUT && Arrays.binarySearch(supersededPuts, opId) < 0) {
                            throw new IllegalStateException("Cannot fold a row's latest PUT into a CLEAR: group "
                                + groupId + ", bucket " + bucket + ", op " + opId);
                        }
                        last = opId;
                        checksum = (checksum + rs.getLong(3)) & MASK;
                        folded += op == CLEAR ? 0 : 1;
                    }
                }
            }
            if (folded == 0) {
                return false;
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                + " WHERE bucket = ? AND op_id >= ? AND op_id <= ?")) {
                delete.setString(1, bucket);
                delete.setLong(2, fold.opId);
                delete.setLong(3, last);
                delete.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                + " (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
                + " VALUES (?, ?, ?, " + CLEAR + ", '', '', ?, NULL)")) {
                insert.setLong(1, groupId);
                insert.setString(2, bucket);
                insert.setLong(3, last);
                insert.setLong(4, checksum);
                insert.executeUpdate();
            }
            fold.opId = last;
            fold.checksum = checksum;
            cleared += folded;
            return true;
        }
    }

    /** The CLEAR this compaction wrote last in a bucket: its op id (0 = none yet) and checksum. */
    private static final class Fold {
        private long opId;
        private long checksum;
    }

    /** Superseded op ids of a bucket, in the descending order the scan finds them. */
    private static final class PendingMoves {
        private long[] opIds = new long[1024];
        private int size;

        void add(long opId) {
            if (size == opIds.length) {
                opIds = Arrays.copyOf(opIds, size * 2);
            }
            opIds[size++] = opId;
        }

        int size() {
            return size;
        }

        /** Moves the op ids above {@code bound} to {@code out}; the others stay. */
        void takeAbove(long bound, List<Long> out) {
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (opIds[i] > bound) {
                    out.add(opIds[i]);
                } else {
                    opIds[kept++] = opIds[i];
                }
            }
            size = kept;
        }

        /** The op ids still pending, ascending. */
        long[] sorted() {
            long[] sorted = Arrays.copyOf(opIds, size);
            Arrays.sort(sorted);
            return sorted;
        }
    }
}
