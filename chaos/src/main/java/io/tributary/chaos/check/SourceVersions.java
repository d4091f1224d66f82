package io.tributary.chaos.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.chaos.workload.SourceHistory;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The source's committed history in commit order: each transaction of the {@link CommitLog} with the row versions
 * it wrote ({@link SourceHistory}), so the state of the source "as of" any LSN is the replay of the transactions
 * whose commit ends at or before it. Transactions that wrote no audited row are kept too (they move the position
 * only). Grows for the whole run (a few hundred bytes per row version); not thread-safe.
 */
final class SourceVersions {

    /** A row version: {@code columns} the source's text forms by column name, empty for a deleted key. */
    record Change(String table, String key, Optional<ObjectNode> columns) {
    }

    /** One committed transaction and what it wrote, in the order it wrote it. */
    record Transaction(long endLsn, List<Change> changes) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration VISIBLE_WAIT = Duration.ofMillis(20);
    private static final long XID_MASK = 0xFFFF_FFFFL;

    private final String slot;
    private final List<Transaction> transactions = new ArrayList<>();

    SourceVersions(String slot) {
        this.slot = slot;
    }

    /** The committed transactions read so far, in commit order. */
    List<Transaction> transactions() {
        return transactions;
    }

    /** Reads the transactions committed since the last call (at least up to the source's flushed WAL then). */
    void catchUp(Connection source) throws SQLException {
        List<CommitLog.Commit> commits = CommitLog.read(source, slot);
        if (commits.isEmpty()) {
            return;
        }
        Map<Long, List<Change>> written = versions(source, commits);
        for (CommitLog.Commit commit : commits) {
            transactions.add(new Transaction(commit.endLsn(), written.getOrDefault(commit.xid(), List.of())));
        }
    }

    /**
     * The row versions of {@code commits}, by 32-bit transaction id, read in one snapshot in which every one of
     * them is visible: a commit record is in the WAL a moment before its transaction is visible to other sessions.
     */
    private static Map<Long, List<Change>> versions(Connection source, List<CommitLog.Commit> commits)
        throws SQLException {
        boolean autoCommit = source.getAutoCommit();
        source.setAutoCommit(false);
        try (Statement isolation = source.createStatement()) {
            while (true) {
                isolation.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                long[] full = fullIds(source, commits);
                if (full.length > 0) {
                    Map<Long, List<Change>> versions = read(source, full);
                    source.commit();
                    return versions;
                }
                source.rollback();
                LockSupport.parkNanos(VISIBLE_WAIT.toNanos());
            }
        } finally {
            source.setAutoCommit(autoCommit);
        }
    }

    /**
     * The 64-bit ids of {@code commits} if all are visible in the transaction's snapshot, else an empty array. The
     * epoch is the current one's, or the one before for an id above the current 32-bit counter (wrapped since).
     */
    private static long[] fullIds(Connection source, List<CommitLog.Commit> commits) throws SQLException {
        long current;
        try (Statement statement = source.createStatement();
             ResultSet rs = statement.executeQuery("SELECT txid_snapshot_xmax(txid_current_snapshot())")) {
            rs.next();
            current = rs.getLong(1);
        }
        long[] full = new long[commits.size()];
        for (int i = 0; i < full.length; i++) {
            long xid = commits.get(i).xid();
            long candidate = (current & ~XID_MASK) | xid;
            full[i] = candidate >= current ? candidate - (1L << 32) : candidate;
        }
        try (PreparedStatement visible = source.prepareStatement("SELECT bool_and(txid_visible_in_snapshot(x,"
            + " txid_current_snapshot())) FROM unnest(?::bigint[]) x")) {
            Long[] boxed = new Long[full.length];
            for (int i = 0; i < full.length; i++) {
                boxed[i] = full[i];
            }
            Array array = source.createArrayOf("bigint", boxed);
            visible.setArray(1, array);
            try (ResultSet rs = visible.executeQuery()) {
                rs.next();
                return rs.getBoolean(1) ? full : new long[0];
            }
        }
    }

    private static Map<Long, List<Change>> read(Connection source, long[] ids) throws SQLException {
        Map<Long, List<Change>> versions = new HashMap<>();
        Long[] boxed = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            boxed[i] = ids[i];
        }
        try (PreparedStatement select = source.prepareStatement("SELECT txid, tbl, pk, cols::text FROM "
            + SourceHistory.TABLE + " WHERE txid = ANY(?) ORDER BY seq")) {
            select.setArray(1, source.createArrayOf("bigint", boxed));
            select.setFetchSize(10_000);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    String columns = rs.getString(4);
                    versions.computeIfAbsent(rs.getLong(1) & XID_MASK, x -> new ArrayList<>())
                        .add(new Change(rs.getString(2), rs.getString(3),
                            columns == null ? Optional.empty() : Optional.of(object(columns))));
                }
            }
        }
        return versions;
    }

    private static ObjectNode object(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalStateException("Not a row: " + json);
            }
            return object;
        } catch (IOException e) {
            throw new IllegalStateException("Not a row: " + json, e);
        }
    }
}
