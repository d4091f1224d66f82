package io.tributary.chaos.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * Invariants 2 and 3 during the run, from storage alone. A background thread listens for checkpoint notifications
 * (and polls, since notifications coalesce) and audits every checkpoint it sees of every group:
 * <ul>
 *   <li>the accounts bucket as of the checkpoint (its ops with {@code op_id <=} the checkpoint, reduced per row)
 *       holds every account, and their balances sum to the constant total: transfers between accounts of
 *       different partitions are visible whole or not at all;</li>
 *   <li>it records how many ops of the group have {@code op_id <=} the checkpoint; {@link #finish} counts them
 *       again, so an op committed at or below an already published checkpoint shows up as a mismatch.</li>
 * </ul>
 * {@link #start()} once, {@link #finish()} once. Thread-safe.
 */
public final class CheckpointAuditor implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofMillis(500);

    /** A checkpoint as audited: how many ops of its group were at or below it then. */
    private record Audit(long group, Checkpoint checkpoint, long opsAtOrBelow) {
    }

    private final PgEndpoint storage;
    private final String bucket;
    private final String table;
    private final int accounts;
    private final long total;
    private final List<Audit> audits = new ArrayList<>();
    private final List<Mismatch> mismatches = new ArrayList<>();
    private final Map<Long, Long> lastAudited = new HashMap<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile String failure = "";

    /**
     * @param bucket   the bucket holding every account, e.g. {@code all_accounts[]}
     * @param table    the accounts' output table in that bucket
     * @param accounts how many accounts there are
     * @param total    their total balance
     */
    public CheckpointAuditor(PgEndpoint storage, String bucket, String table, int accounts, long total) {
        this.storage = storage;
        this.bucket = bucket;
        this.table = table;
        this.accounts = accounts;
        this.total = total;
        this.thread = new Thread(this::run, "chaos-checkpoint-auditor");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        while (!stopping) {
            try (Connection listen = storage.connect(); Connection read = storage.connect()) {
                Checkpoints.listen(listen);
                while (!stopping) {
                    auditNew(read);
                    Checkpoints.awaitAdvances(listen, POLL);
                }
            } catch (SQLException | RuntimeException e) {
                failure = e.toString();
                LockSupport.parkNanos(POLL.toNanos());
            }
        }
    }

    private void auditNew(Connection read) throws SQLException {
        for (SyncRulesGroup group : SyncRulesGroups.list(read)) {
            if (group.checkpoint().isEmpty()) {
                continue;
            }
            Checkpoint checkpoint = group.checkpoint().get();
            Long previous = lastAudited.get(group.id());
            if (previous != null && previous >= checkpoint.opId()) {
                continue;
            }
            lastAudited.put(group.id(), checkpoint.opId());
            audit(read, group.id(), checkpoint);
        }
    }

    private void audit(Connection read, long group, Checkpoint checkpoint) throws SQLException {
        Map<String, String> rows = new HashMap<>();
        try (PreparedStatement select = read.prepareStatement("SELECT row_id, op, data FROM tributary.bucket_data"
            + " WHERE group_id = ? AND bucket = ? AND source_table = ? AND op_id <= ? ORDER BY op_id")) {
            select.setLong(1, group);
            select.setString(2, bucket);
            select.setString(3, table);
            select.setLong(4, checkpoint.opId());
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    if (rs.getShort(2) == 1) {
                        rows.put(rs.getString(1), rs.getString(3));
                    } else {
                        rows.remove(rs.getString(1));
                    }
                }
            }
        }
        long sum = 0;
        for (String data : rows.values()) {
            sum += balance(data);
        }
        long ops = countAtOrBelow(read, group, checkpoint.opId());
        synchronized (this) {
            audits.add(new Audit(group, checkpoint, ops));
            if (rows.size() != accounts || sum != total) {
                mismatches.add(Mismatch.of("checkpoint", "group " + group + " checkpoint " + checkpoint
                    + " bucket " + bucket, accounts + " accounts, total " + total, rows.size() + " accounts, total "
                    + sum));
            }
        }
    }

    private static long balance(String data) {
        try {
            JsonNode balance = JSON.readTree(data).get("balance");
            return balance == null ? 0 : balance.asLong();
        } catch (IOException e) {
            throw new IllegalStateException("Not a JSON row: " + data, e);
        }
    }

    private static long countAtOrBelow(Connection read, long group, long opId) throws SQLException {
        try (PreparedStatement count = read.prepareStatement("SELECT count(*) FROM tributary.bucket_data"
            + " WHERE group_id = ? AND op_id <= ?")) {
            count.setLong(1, group);
            count.setLong(2, opId);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** How many checkpoints were audited so far. */
    public synchronized int audited() {
        return audits.size();
    }

    /**
     * Stops auditing, then recounts the ops at or below every audited checkpoint of each group that is not
     * cleared (a group superseded by a newer deploy is cleared after a grace period, which drops its ops).
     *
     * @return every mismatch: wrong totals, and ops that appeared at or below a checkpoint after its publication
     * @throws IllegalStateException if auditing itself kept failing (no checkpoint could be audited)
     */
    public List<Mismatch> finish() throws SQLException {
        stopping = true;
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Audit> done;
        List<Mismatch> found;
        synchronized (this) {
            done = List.copyOf(audits);
            found = new ArrayList<>(mismatches);
        }
        Map<Long, long[]> opIds = new HashMap<>();
        try (Connection c = storage.connect()) {
            for (Audit audit : done) {
                opIds.computeIfAbsent(audit.group(), g -> allOpIds(c, g));
            }
            // Read after the op ids: clearing is final, so a group not cleared now was not cleared while its ids
            // were read. A cleared group's ops were dropped on purpose (superseded by a newer deploy).
            Set<Long> cleared = SyncRulesGroups.list(c).stream().filter(SyncRulesGroup::cleared)
                .map(SyncRulesGroup::id).collect(Collectors.toSet());
            for (Audit audit : done) {
                if (cleared.contains(audit.group())) {
                    continue;
                }
                long now = countAtOrBelow(opIds.get(audit.group()), audit.checkpoint().opId());
                if (now != audit.opsAtOrBelow()) {
                    found.add(Mismatch.of("checkpoint-final", "group " + audit.group() + " ops <= checkpoint "
                        + audit.checkpoint(), audit.opsAtOrBelow() + " ops (when published)", now + " ops now"));
                }
            }
        }
        if (done.isEmpty() && !failure.isEmpty()) {
            throw new IllegalStateException("No checkpoint was audited: none was published while the auditor ran, or"
                + " reading them kept failing (the last failure: " + failure + ")");
        }
        return found;
    }

    private static long[] allOpIds(Connection c, long group) {
        try (PreparedStatement select = c.prepareStatement("SELECT op_id FROM tributary.bucket_data WHERE group_id = ?"
            + " ORDER BY op_id")) {
            select.setLong(1, group);
            select.setFetchSize(10_000);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids.stream().mapToLong(Long::longValue).toArray();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the op ids of group " + group, e);
        }
    }

    private static long countAtOrBelow(long[] sortedIds, long opId) {
        int index = Arrays.binarySearch(sortedIds, opId);
        return index >= 0 ? index + 1 : -index - 1;
    }

    @Override
    public void close() {
        stopping = true;
    }
}
