package io.tributary.storage.compact;

import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts a group's {@code bucket_data} up to its published checkpoint, the way PowerSync compacts buckets, in
 * passes of bounded cost.
 *
 * <ol>
 *   <li><b>Buckets.</b> Each bucket is compacted by a {@link BucketScan}: superseded PUT and REMOVE ops become
 *       MOVEs, a leading run of ops that are no live PUT folds into one CLEAR. Reads and updates go in pages of
 *       {@code batchOps} ops.</li>
 *   <li><b>Cursor.</b> A round visits the buckets in name order. A pass reads at most {@code passOps} ops of
 *       {@code bucket_data}, then stops, between two buckets or inside one, and stores the last bucket it finished
 *       ({@code compaction_state.bucket_cursor}); the next pass goes on after it, and a pass that reaches the last
 *       bucket starts the next round. A bucket a pass stopped inside is resumed where it stopped, at the checkpoint
 *       it was started at, by the next pass of any compactor in any process: the scan's position and the rows it
 *       saw are stored ({@link StoredScan}, {@code compaction_scan}), its superseded ops already MOVEs; the same
 *       compactor keeps them in memory too and reads them back only when another pass moved them on. An
 *       unbounded pass (the default) visits every bucket once, wrapping round from the cursor.</li>
 *   <li><b>Parameter lookups.</b> Every pass deletes superseded versions of the group's parameter lookups, see
 *       {@link ParameterCompactor}.</li>
 *   <li><b>Vacuum.</b> A pass that turned at least a tenth of the group's ops (and at least
 *       {@value #VACUUM_MIN_OPS}) into MOVEs or folded them into CLEARs ends with {@code VACUUM (ANALYZE,
 *       SKIP_LOCKED)} of the group's {@code bucket_data} partition. Until a vacuum removes them, the deleted ops and
 *       the old versions of the moved ones stay in the partition's key index, and a client's first read of a bucket
 *       (an index range scan from the bucket's first op) walks every one of them to reach the CLEAR; autovacuum gets
 *       there only after its next nap. The vacuum never blocks writers, and is skipped when a lock it needs is
 *       held.</li>
 * </ol>
 *
 * <p>Before its first rewrite up to a checkpoint a pass raises the group's data fence to it
 * ({@link CompactionFence}), so the sync API does not complete an older checkpoint whose ops it read partly after
 * the rewrite.
 *
 * <p>Every bucket's sum over {@code (0, C]} is the same before and after for every checkpoint C at or above the one
 * its ops were compacted up to (older ones are behind the data fence), and a client
 * in the middle of a download stays right: the ops it already holds are still summed in, a CLEAR it reads makes it
 * drop the bucket's earlier ops, and each row's latest op is never touched. Only ops at or below the published
 * checkpoint are read or written, all committed; storage writers only append above it and never wait on a
 * compaction. One compaction per group runs at a time (a session advisory lock); another finds it held and does
 * nothing. Not thread-safe; one instance per caller.
 */
public final class BucketCompactor {

    /** The default of {@code batchOps}: ops read per page, updated per statement and folded per transaction. */
    public static final int DEFAULT_BATCH_OPS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(BucketCompactor.class);
    private static final int LOCK_CLASS = 0x636f_6d70; // "comp"
    private static final int DEFAULT_TRACKED_ROWS = 1_000_000;
    /** The fewest ops a pass rewrites (MOVEs and folded ops) before it vacuums the partition. */
    static final long VACUUM_MIN_OPS = 1_000;
    /** The share of the partition's rows a pass rewrites before it vacuums the partition: one in this many. */
    private static final long VACUUM_SHARE = 10;

    private final int batchOps;
    private final int trackedRows;
    private final long passOps;
    private final Map<Long, Resumable> stopped = new HashMap<>();

    private BucketCompactor(int batchOps, int trackedRows, long passOps) {
        if (batchOps <= 0 || trackedRows <= 0 || passOps <= 0) {
            throw new IllegalArgumentException("Batch size, tracked rows and ops per pass are > 0: " + batchOps
                + ", " + trackedRows + ", " + passOps);
        }
        this.batchOps = batchOps;
        this.trackedRows = trackedRows;
        this.passOps = passOps;
    }

    /** A compactor working in pages of {@code batchOps} ops, &gt; 0, whose passes visit every bucket once. */
    public static BucketCompactor ofBatch(int batchOps) {
        return new BucketCompactor(batchOps, DEFAULT_TRACKED_ROWS, Long.MAX_VALUE);
    }

    /** A compactor like this one whose passes read at most {@code ops} ops of {@code bucket_data} each, &gt; 0. */
    public BucketCompactor boundedTo(long ops) {
        return new BucketCompactor(batchOps, trackedRows, ops);
    }

    /**
     * One pass over group {@code groupId}'s buckets up to its published checkpoint, from where the last pass
     * stopped. {@code connection} is in auto-commit mode and stays so; every step commits on its own.
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
            CompactionPass pass = new CompactionPass(connection, groupId, passOps);
            double rowsBefore = estimatedRows(pass);
            boolean roundEnded = visit(pass, checkpoint.get().opId());
            long parameterVersions = new ParameterCompactor(batchOps).compact(connection, groupId,
                checkpoint.get().opId());
            CompactionResult result = new CompactionResult(checkpoint.get().opId(), pass.buckets, pass.moved,
                pass.cleared, parameterVersions, roundEnded);
            String vacuum = vacuumIfMostlyRewritten(pass, rowsBefore);
            LOG.info("Compacted group {} up to op {}: {} buckets, {} ops moved, {} ops folded into CLEAR, {} parameter"
                + " lookup versions deleted{}{}", groupId, result.checkpoint(), result.buckets(), result.moved(),
                result.cleared(), result.parameterVersions(), vacuum, roundEnded ? "" : "; the next pass goes on");
            return result;
        } finally {
            lock(connection, groupId, "pg_advisory_unlock");
        }
    }

    /**
     * Compacts buckets from the stored cursor on, within the pass's budget; true when the pass reached the last
     * bucket (the round ended), false when the budget stopped it first.
     */
    private boolean visit(CompactionPass pass, long checkpoint) throws SQLException {
        String start = pass.cursor();
        String cursor = start;
        boolean roundEnded = false;
        boolean wrapped = start.isEmpty();
        Resumable resumable = stopped.remove(pass.groupId);
        Optional<StoredScan.State> stored = StoredScan.state(pass, start);
        BucketScan scan = null;
        if (stored.isPresent()) {
            scan = resumable != null && resumable.cursor.equals(start) && resumable.scan.isAt(stored.get())
                ? resumable.scan : StoredScan.load(pass, stored.get(), batchOps, trackedRows);
        }
        boolean stoppedInside = false;
        pass.buckets += scan == null ? 0 : 1;
        while (true) {
            if (scan == null) {
                String bucket = pass.nextBucket(cursor);
                if (bucket == null) {
                    roundEnded = true;
                    cursor = "";
                    if (wrapped) {
                        break;
                    }
                    wrapped = true;
                    continue;
                }
                if (wrapped && !start.isEmpty() && !cursor.isEmpty() && cursor.equals(start)) {
                    break;
                }
                if (!pass.hasBudget()) {
                    break;
                }
                scan = new BucketScan(bucket, checkpoint, batchOps, trackedRows);
                pass.buckets++;
            }
            scan.advance(pass);
            if (!scan.done()) {
                scan.stop(pass, cursor);
                stopped.put(pass.groupId, new Resumable(cursor, scan));
                stoppedInside = true;
                break;
            }
            cursor = scan.bucket;
            scan = null;
        }
        if (!stoppedInside) {
            StoredScan.clear(pass);
        }
        pass.saveCursor(cursor);
        return roundEnded;
    }

    /** The planner's estimate of the partition's rows ({@code pg_class.reltuples}); 0 when it has none yet. */
    private static double estimatedRows(CompactionPass pass) throws SQLException {
        try (PreparedStatement select = pass.connection.prepareStatement("SELECT greatest(reltuples, 0) FROM pg_class"
            + " WHERE oid = ?::regclass")) {
            select.setString(1, pass.table);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? rs.getDouble(1) : 0;
            }
        }
    }

    /**
     * Vacuums and analyzes the partition when the pass rewrote at least {@link #VACUUM_MIN_OPS} ops and a
     * {@link #VACUUM_SHARE}th of {@code rowsBefore}; what it did, for the log (empty when it did not).
     */
    private static String vacuumIfMostlyRewritten(CompactionPass pass, double rowsBefore) throws SQLException {
        long rewritten = pass.moved + pass.cleared;
        if (rewritten < VACUUM_MIN_OPS || rewritten * VACUUM_SHARE < rowsBefore) {
            return "";
        }
        long start = System.nanoTime();
        try (Statement vacuum = pass.connection.createStatement()) {
            vacuum.execute("VACUUM (ANALYZE, SKIP_LOCKED) " + pass.table);
        }
        return String.format(Locale.ROOT, "; vacuumed %s in %d ms", pass.table,
            (System.nanoTime() - start) / 1_000_000);
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

    /** A bucket a pass stopped inside, and the cursor it stored then (the bucket before it). */
    private record Resumable(String cursor, BucketScan scan) {
    }
}
