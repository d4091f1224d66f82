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
 * Invariants 2 and 3 during the run, for every checkpoint any group publishes. {@link #start} installs the
 * {@link CheckpointLog} (every publication recorded by the publishing transaction), and a background thread reads
 * the log in publication order, woken by checkpoint notifications and polling:
 * <ul>
 *   <li>each group's checkpoints go forward ({@link CheckpointOrder}): an op id, LSN or epoch that goes back is a
 *       {@code checkpoint-order} mismatch;</li>
 *   <li>each checkpoint is audited in full ({@link GroupAudit}): every bucket and row a client downloads at it
 *       (its ops with {@code op_id <=} the checkpoint, reduced per bucket and row) equals the group's rules
 *       evaluated by hand ({@link WorkloadRules}) over the source as of the checkpoint's LSN, read from the source's
 *       own row history and WAL commit positions ({@link SourceVersions}), value by value
 *       ({@code checkpoint-rows}); every op's checksum is computed again from its fields ({@code checkpoint-ops});
 *       {@code bucket_data} is append-only, so a checkpoint's ops are its contents however late they are read;</li>
 *   <li>the accounts bucket holds every account and their balances sum to the constant total (transfers between
 *       accounts of different partitions are visible whole or not at all), a check that needs no history;</li>
 *   <li>it records how many ops of the group have {@code op_id <=} the checkpoint; {@link #finish} counts them
 *       again, so an op committed at or below an already published checkpoint shows up as a mismatch.</li>
 * </ul>
 * No checkpoint is skipped: one that cannot be read because storage or the source does not answer stays in the log
 * and is audited once they are back (at the latest by {@link #finish}); one whose audit fails otherwise is a
 * {@code checkpoint-audit} mismatch. Only the checkpoints of a group that was cleared (superseded by a newer
 * deploy, its ops dropped) before they were read are not audited; {@link #dropped} counts them. Audited
 * checkpoints are deleted from the log, so it holds only what is still to be audited.
 * {@link #start()} once, {@link #finish()} once. Thread-safe.
 */
public final class CheckpointAuditor implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration DRAIN = Duration.ofSeconds(90);
    private static final int BATCH = 200;

    /** A checkpoint as audited: how many ops of its group were at or below it then. */
    private record Audit(long group, Checkpoint checkpoint, long opsAtOrBelow) {
    }

    private final PgEndpoint storage;
    private final PgEndpoint source;
    private final SourceVersions versions;
    private final Map<Long, GroupAudit> groups = new HashMap<>();
    private final String bucket;
    private final String table;
    private final int accounts;
    private final long total;
    private final List<Audit> audits = new ArrayList<>();
    private final List<Mismatch> mismatches = new ArrayList<>();
    private final CheckpointOrder order = new CheckpointOrder();
    private final Thread thread;
    private long lastSequence;
    private int taken;
    private long rowsAudited;
    private int dropped;
    private volatile boolean stopping;
    private volatile String failure = "";

    /**
     * @param source     the source database, with the workload's row history ({@code SourceHistory})
     * @param commitSlot the replication slot of the {@link CommitLog}, created before the first audited write
     * @param bucket     the bucket holding every account, e.g. {@code all_accounts[]}
     * @param table      the accounts' output table in that bucket
     * @param accounts   how many accounts there are
     * @param total      their total balance
     */
    public CheckpointAuditor(PgEndpoint storage, PgEndpoint source, String commitSlot, String bucket, String table,
                             int accounts, long total) {
        this.storage = storage;
        this.source = source;
        this.versions = new SourceVersions(commitSlot);
        this.bucket = bucket;
        this.table = table;
        this.accounts = accounts;
        this.total = total;
        this.thread = new Thread(this::run, "chaos-checkpoint-auditor");
        this.thread.setDaemon(true);
    }

    /**
     * Installs the checkpoint log into storage and starts auditing. Storage must be migrated; checkpoints published
     * before this call are not audited.
     *
     * @throws SQLException if storage does not answer or is not migrated
     */
    public void start() throws SQLException {
        try (Connection c = storage.connect()) {
            CheckpointLog.install(c);
        }
        thread.start();
    }

    private void run() {
        while (!stopping) {
            try (Connection listen = storage.connect(); Connection read = storage.connect();
                 Connection history = source.connect()) {
                Checkpoints.listen(listen);
                while (!stopping) {
                    auditLogged(read, history);
                    Checkpoints.awaitAdvances(listen, POLL);
                }
            } catch (SQLException | RuntimeException e) {
                failure = e.toString();
                LockSupport.parkNanos(POLL.toNanos());
            }
        }
    }

    /** Audits every logged checkpoint not audited yet, in publication order, and forgets them. */
    private synchronized void auditLogged(Connection read, Connection history) throws SQLException {
        List<PublishedCheckpoint> batch;
        do {
            batch = CheckpointLog.after(read, lastSequence, BATCH);
            if (!batch.isEmpty()) {
                // after the checkpoints were read: the source's WAL is flushed past every one of their LSNs
                versions.catchUp(history);
            }
            for (PublishedCheckpoint published : batch) {
                audit(read, published);
                lastSequence = published.sequence();
            }
            if (!batch.isEmpty()) {
                CheckpointLog.forget(read, lastSequence);
            }
        } while (batch.size() == BATCH);
    }

    /**
     * Audits one checkpoint; nothing is recorded unless it is done, so a checkpoint whose reads fail with an
     * {@link SQLException} (storage does not answer) is audited again later.
     */
    private void audit(Connection read, PublishedCheckpoint published) throws SQLException {
        long group = published.group();
        try {
            if (cleared(read, group)) {
                dropped++;
            } else {
                audit(read, group, published.checkpoint());
            }
        } catch (RuntimeException e) {
            mismatches.add(Mismatch.of("checkpoint-audit", "group " + group + " checkpoint " + published,
                "the checkpoint audited", "the audit failed: " + e));
        }
        order.next(published).ifPresent(mismatches::add);
        taken++;
    }

    private static boolean cleared(Connection read, long group) throws SQLException {
        return SyncRulesGroups.list(read).stream().anyMatch(g -> g.id() == group && g.cleared());
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
        GroupAudit full = groups.get(group);
        if (full == null) {
            String rules = SyncRulesGroups.find(read, group).map(SyncRulesGroup::content).orElseThrow(
                () -> new IllegalStateException("Group " + group + " is not in storage"));
            full = new GroupAudit(group, WorkloadRules.of(rules));
            groups.put(group, full);
        }
        mismatches.addAll(full.audit(read, checkpoint, versions));
        rowsAudited += full.rows();
        audits.add(new Audit(group, checkpoint, ops));
        if (rows.size() != accounts || sum != total) {
            mismatches.add(Mismatch.of("checkpoint", "group " + group + " checkpoint " + checkpoint
                + " bucket " + bucket, accounts + " accounts, total " + total, rows.size() + " accounts, total "
                + sum));
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

    /** How many rows (bucket, table, id) the audited checkpoints held, added up over the checkpoints. */
    public synchronized long rowsAudited() {
        return rowsAudited;
    }

    /** How many checkpoints were audited so far. */
    public synchronized int audited() {
        return audits.size();
    }

    /**
     * How many published checkpoints were taken from the log so far: audited ({@link #audited}), failed to audit
     * (a mismatch) or dropped with their group ({@link #dropped}).
     */
    public synchronized int taken() {
        return taken;
    }

    /** How many checkpoints were not audited because their group was cleared before they could be read. */
    public synchronized int dropped() {
        return dropped;
    }

    /**
     * Stops the background thread, audits every checkpoint still in the log (waiting up to 90 s for storage to
     * answer), then recounts the ops at or below every audited checkpoint of each group that is not cleared (a
     * group superseded by a newer deploy is cleared after a grace period, which drops its ops).
     *
     * @return every mismatch: wrong totals, checkpoints out of order, audits that failed or could not be done, and
     *     ops that appeared at or below a checkpoint after its publication
     * @throws IllegalStateException if auditing itself kept failing (no checkpoint could be audited)
     */
    public List<Mismatch> finish() throws SQLException {
        stopping = true;
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        drain();
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

    /** Audits what the log still holds; if storage does not answer within {@link #DRAIN}, that is a mismatch. */
    private void drain() {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (true) {
            try (Connection c = storage.connect(); Connection history = source.connect()) {
                auditLogged(c, history);
                return;
            } catch (SQLException e) {
                failure = e.toString();
                if (System.nanoTime() >= deadline) {
                    synchronized (this) {
                        mismatches.add(Mismatch.of("checkpoint-audit", "checkpoints published after #" + lastSequence,
                            "every published checkpoint audited", "the checkpoint log could not be read within "
                                + DRAIN + ": " + failure));
                    }
                    return;
                }
                LockSupport.parkNanos(POLL.toNanos());
            }
        }
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
