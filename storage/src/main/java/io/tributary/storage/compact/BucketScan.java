package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The compaction of one bucket up to one checkpoint, in steps that read no more ops than a pass has left, so it
 * can stop inside the bucket and go on in a later pass.
 *
 * <ol>
 *   <li><b>Scan.</b> The bucket is read newest op first, in pages. A PUT or REMOVE of a row (output table and row
 *       id) that a later op of the bucket supersedes becomes a MOVE: same op id, same checksum, data cleared.</li>
 *   <li><b>Fold.</b> When the bucket starts with more than one op that is not a live PUT, those ops up to the
 *       highest of them fold into one CLEAR at that op id whose checksum is their wrapping 32-bit sum, one
 *       repeatable read transaction per page.</li>
 * </ol>
 *
 * <p>What a scan remembers between steps (the rows seen above where it stopped) holds across passes: an op
 * superseded at the checkpoint stays superseded, a MOVE keeps its op id, and only ops that are no row's latest
 * are ever folded. A fold resumed in a later pass first checks that the CLEAR it wrote last is still there as it
 * wrote it; if another compaction folded it in meanwhile, it starts again from the bucket's first op. A scan that
 * stops inside its bucket is stored ({@link #stop}), so a pass of another compactor or another process resumes it
 * ({@link #resumed}) instead of reading the bucket again. Memory is bounded by {@code trackedRows} row keys; ops
 * of rows beyond that stay as they are. Not thread-safe.
 */
final class BucketScan {

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

    final String bucket;
    final long checkpoint;
    private final int batchOps;
    private final int trackedRows;
    private final Set<String> seen = new HashSet<>();
    private final List<String> unsaved = new ArrayList<>();
    private final List<Long> moves = new ArrayList<>();
    private final PendingMoves pending = new PendingMoves();
    private long below;
    private long lastNotPut;
    private long opsSincePut;
    private long lowestLivePut = Long.MAX_VALUE;
    private boolean scanned;
    private long[] supersededPuts;
    private boolean folding;
    private long foldOpId;
    private long foldChecksum;
    private boolean done;
    private boolean stored;

    BucketScan(String bucket, long checkpoint, int batchOps, int trackedRows) {
        this.bucket = bucket;
        this.checkpoint = checkpoint;
        this.batchOps = batchOps;
        this.trackedRows = trackedRows;
        this.below = checkpoint + 1;
    }

    /** The scan {@link #stop} stored, with the rows it had seen, as it stood then. */
    static BucketScan resumed(StoredScan.State state, Set<String> seenRows, int batchOps, int trackedRows) {
        BucketScan scan = new BucketScan(state.bucket(), state.checkpoint(), batchOps, trackedRows);
        scan.seen.addAll(seenRows);
        scan.below = state.below();
        scan.scanned = state.scanned();
        scan.folding = state.scanned();
        scan.supersededPuts = new long[0];
        scan.lastNotPut = state.lastNotPut();
        scan.opsSincePut = state.opsSincePut();
        scan.lowestLivePut = state.lowestLivePut();
        scan.foldOpId = state.foldOpId();
        scan.foldChecksum = state.foldChecksum();
        scan.stored = true;
        return scan;
    }

    /**
     * Stores where this scan stopped, so that a later pass of any compactor goes on from there: first every
     * superseded op it found that is still a PUT or REMOVE becomes a MOVE (a resumed scan knows them only by
     * that), then its position and the rows it saw since it was last stored are written ({@link StoredScan}).
     */
    void stop(CompactionPass pass, String afterCursor) throws SQLException {
        if (folding) {
            for (long opId : supersededPuts) {
                if (opId > foldOpId) {
                    moves.add(opId);
                }
            }
            supersededPuts = new long[0];
        } else {
            pending.takeAbove(0, moves);
        }
        flushMoves(pass);
        if (!stored) {
            StoredScan.clear(pass);
            stored = true;
        }
        StoredScan.save(pass, afterCursor, new StoredScan.State(bucket, checkpoint, below, folding, lastNotPut,
            opsSincePut, lowestLivePut, foldOpId, foldChecksum), unsaved);
        unsaved.clear();
    }

    /** True when this scan is where {@code state} says a stopped scan was, in memory as stored. */
    boolean isAt(StoredScan.State state) {
        return bucket.equals(state.bucket()) && checkpoint == state.checkpoint() && below == state.below()
            && folding == state.scanned() && foldOpId == state.foldOpId();
    }

    /** True once the bucket is compacted up to the checkpoint. */
    boolean done() {
        return done;
    }

    /**
     * Goes on with the bucket while {@code pass} has ops left to read; returns when the bucket is done or the
     * budget is spent. {@code pass}'s connection is in auto-commit mode and stays so.
     */
    void advance(CompactionPass pass) throws SQLException {
        while (!scanned && pass.hasBudget()) {
            scanPage(pass);
        }
        if (scanned && !folding) {
            boolean fold = lastNotPut > 0 && opsSincePut > 1;
            pending.takeAbove(fold ? lastNotPut : 0, moves);
            flushMoves(pass);
            if (!fold) {
                done = true;
                return;
            }
            supersededPuts = pending.sorted();
            folding = true;
        } else if (folding && !foldStillThere(pass)) {
            foldOpId = 0;
            foldChecksum = 0;
        }
        if (folding && pass.hasBudget()) {
            fold(pass);
        }
    }

    private void scanPage(CompactionPass pass) throws SQLException {
        int limit = pass.page(batchOps);
        int read = 0;
        try (PreparedStatement select = pass.connection.prepareStatement("SELECT op_id, op, source_table, row_id"
            + " FROM " + pass.table + " WHERE " + pass.groupKey
            + " AND bucket = ? AND op_id < ? ORDER BY op_id DESC LIMIT ?")) {
            select.setString(1, bucket);
            select.setLong(2, below);
            select.setInt(3, limit);
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
                            unsaved.add(row);
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
        pass.read(read);
        pending.takeAbove(lowestLivePut, moves);
        if (pending.size() > MAX_PENDING_MOVES) {
            pending.takeAbove(0, moves);
        }
        if (moves.size() >= batchOps) {
            flushMoves(pass);
        }
        scanned = read < limit;
    }

    /** Turns the collected superseded ops into MOVEs, in statements of at most {@code batchOps} ops. */
    private void flushMoves(CompactionPass pass) throws SQLException {
        if (moves.isEmpty()) {
            return;
        }
        pass.fence(checkpoint);
        for (int from = 0; from < moves.size(); from += batchOps) {
            List<Long> part = moves.subList(from, Math.min(moves.size(), from + batchOps));
            try (PreparedStatement update = pass.connection.prepareStatement("UPDATE " + pass.table + " SET op = "
                + MOVE + ", data = NULL WHERE " + pass.groupKey + " AND bucket = ? AND op_id = ANY (?) AND op IN ("
                + PUT + ", " + REMOVE + ")")) {
                update.setString(1, bucket);
                update.setArray(2, pass.connection.createArrayOf("bigint", part.toArray()));
                pass.moved += update.executeUpdate();
            }
        }
        moves.clear();
    }

    /** Whether the CLEAR this scan wrote last (none yet counts as there) is still in the bucket as written. */
    private boolean foldStillThere(CompactionPass pass) throws SQLException {
        if (foldOpId == 0) {
            return true;
        }
        try (PreparedStatement select = pass.connection.prepareStatement("SELECT 1 FROM " + pass.table
            + " WHERE " + pass.groupKey + " AND bucket = ? AND op_id = ? AND op = " + CLEAR + " AND checksum = ?")) {
            select.setString(1, bucket);
            select.setLong(2, foldOpId);
            select.setLong(3, foldChecksum);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Folds the bucket's ops up to {@code lastNotPut} into one CLEAR, a transaction per page, within budget. */
    private void fold(CompactionPass pass) throws SQLException {
        pass.fence(checkpoint);
        Connection connection = pass.connection;
        int isolation = connection.getTransactionIsolation();
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            while (pass.hasBudget()) {
                boolean more = foldOnce(pass);
                connection.commit();
                if (!more) {
                    done = true;
                    break;
                }
            }
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setTransactionIsolation(isolation);
            connection.setAutoCommit(true);
        }
    }

    /**
     * One page of the fold over the ops after the CLEAR written last ({@code foldOpId}; from the bucket's start the
     * first time, which takes in a CLEAR of an earlier compaction); false when nothing is left to fold.
     */
    private boolean foldOnce(CompactionPass pass) throws SQLException {
        long checksum = foldChecksum;
        long last = 0;
        long folded = 0;
        int read = 0;
        try (PreparedStatement select = pass.connection.prepareStatement("SELECT op_id, op, checksum FROM "
            + pass.table + " WHERE " + pass.groupKey
            + " AND bucket = ? AND op_id > ? AND op_id <= ? ORDER BY op_id LIMIT ?")) {
            select.setString(1, bucket);
            select.setLong(2, foldOpId);
            select.setLong(3, lastNotPut);
            select.setInt(4, pass.page(batchOps));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    read++;
                    long opId = rs.getLong(1);
                    short op = rs.getShort(2);
                    if (op == PUT && Arrays.binarySearch(supersededPuts, opId) < 0) {
                        throw new IllegalStateException("Cannot fold a row's latest PUT into a CLEAR: group "
                            + pass.groupId + ", bucket " + bucket + ", op " + opId);
                    }
                    last = opId;
                    checksum = (checksum + rs.getLong(3)) & MASK;
                    folded += op == CLEAR ? 0 : 1;
                }
            }
        }
        pass.read(read);
        if (folded == 0) {
            return false;
        }
        try (PreparedStatement delete = pass.connection.prepareStatement("DELETE FROM " + pass.table
            + " WHERE " + pass.groupKey + " AND bucket = ? AND op_id >= ? AND op_id <= ?")) {
            delete.setString(1, bucket);
            delete.setLong(2, foldOpId);
            delete.setLong(3, last);
            delete.executeUpdate();
        }
        try (PreparedStatement insert = pass.connection.prepareStatement("INSERT INTO " + pass.table
            + " (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
            + " VALUES (?, ?, ?, " + CLEAR + ", '', '', ?, NULL)")) {
            insert.setLong(1, pass.groupId);
            insert.setString(2, bucket);
            insert.setLong(3, last);
            insert.setLong(4, checksum);
            insert.executeUpdate();
        }
        foldOpId = last;
        foldChecksum = checksum;
        pass.cleared += folded;
        return true;
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
