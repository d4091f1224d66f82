package io.tributary.chaos.check;

import io.tributary.storage.groups.Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One group's checkpoints audited in full, each against the source as of its LSN: every bucket, every row, every
 * value, and every op's checksum. Both sides are kept per group and moved forward from one checkpoint to the next:
 * <ul>
 *   <li>expected: the group's rules ({@link WorkloadRules}) over the source state after every transaction whose
 *       commit ends at or before the checkpoint's LSN ({@link SourceVersions}), by {@code bucket/table/id};</li>
 *   <li>served: the group's ops with {@code op_id <=} the checkpoint's, reduced per bucket and row, as a client
 *       downloads them; read incrementally (the ops above the previous checkpoint), so an op committed at or below
 *       a checkpoint after it was audited is the final recount's to find ({@link CheckpointAuditor#finish}).</li>
 * </ul>
 * Only rows that changed on either side since the previous checkpoint are compared again.
 *
 * <p>A tenant table created while the pipeline runs ({@link WorkloadRules#tenantTable}) joins the group's
 * checkpoints once its snapshot is ready: until a checkpoint serves some of its rows it is left out of the expected
 * side, and from the first checkpoint that does, all of it is compared, at that checkpoint and every later one. So
 * a checkpoint holds none of such a table's rows or all of them, as of its LSN, never part. Not thread-safe.
 */
final class GroupAudit {

    /** At most this many row mismatches are reported per checkpoint (with the count of the rest). */
    private static final int MAX_REPORTED = 20;

    private final long group;
    private final WorkloadRules rules;
    private final Map<String, WorkloadRules.Output> expected = new HashMap<>();
    private final Map<String, List<String>> outputsOfRow = new HashMap<>();
    private final Map<String, String> served = new HashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();
    private final Map<String, Integer> servedOfTenant = new HashMap<>();
    private final Set<String> tenantsServed = new HashSet<>();
    private int appliedTransactions;
    private long sourceLsn = -1;
    private long opId = -1;
    private long rows;

    GroupAudit(long group, WorkloadRules rules) {
        this.group = group;
        this.rules = rules;
    }

    /** How many rows (bucket, table, id) the last audited checkpoint held. */
    long rows() {
        return rows;
    }

    /**
     * Audits {@code checkpoint}: moves both sides to it and compares what changed.
     *
     * @param source the source's committed history, read at least up to the checkpoint's LSN
     * @return the differences found (empty: the checkpoint is the source state at its LSN, rules applied)
     */
    List<Mismatch> audit(Connection storage, Checkpoint checkpoint, SourceVersions source) throws SQLException {
        long lsn = CommitLog.lsn(checkpoint.lsn());
        List<Mismatch> mismatches = new ArrayList<>();
        String where = "group " + group + " checkpoint " + checkpoint;
        if (lsn < sourceLsn || checkpoint.opId() < opId) {
            // checkpoint-order reports it; the contents of an earlier position are not kept
            return mismatches;
        }
        applySource(source.transactions(), lsn);
        readOps(storage, checkpoint.opId(), where, mismatches);
        Set<String> compared = new LinkedHashSet<>(changed);
        for (Map.Entry<String, Integer> tenant : servedOfTenant.entrySet()) {
            if (tenant.getValue() > 0 && tenantsServed.add(tenant.getKey())) {
                compared.addAll(keysOf(tenant.getKey()));
            }
        }
        int wrong = 0;
        for (String key : compared) {
            WorkloadRules.Output want = expected.get(key);
            Optional<String> tenant = want == null ? WorkloadRules.tenantTable(key)
                : Optional.of(want.sourceTable()).filter(t -> t.startsWith("tenant_"));
            if (tenant.isPresent() && !tenantsServed.contains(tenant.get())) {
                continue;
            }
            String got = served.get(key);
            boolean same = want == null ? got == null : got != null && WorkloadRules.same(want, got);
            if (!same && wrong++ < MAX_REPORTED) {
                mismatches.add(Mismatch.of("checkpoint-rows", where + " " + key,
                    want == null ? null : Json.write(want.data()), got));
            }
        }
        if (wrong > MAX_REPORTED) {
            mismatches.add(Mismatch.of("checkpoint-rows", where, "no more differing rows",
                (wrong - MAX_REPORTED) + " more differing rows"));
        }
        changed.clear();
        rows = served.size();
        return mismatches;
    }

    /** Every key the expected or the served side holds of tenant table {@code table}. */
    private Set<String> keysOf(String table) {
        Set<String> keys = new LinkedHashSet<>();
        expected.forEach((key, output) -> {
            if (output.sourceTable().equals(table)) {
                keys.add(key);
            }
        });
        for (String key : served.keySet()) {
            if (WorkloadRules.tenantTable(key).filter(table::equals).isPresent()) {
                keys.add(key);
            }
        }
        return keys;
    }

    private void applySource(List<SourceVersions.Transaction> transactions, long lsn) {
        while (appliedTransactions < transactions.size() && transactions.get(appliedTransactions).endLsn() <= lsn) {
            for (SourceVersions.Change change : transactions.get(appliedTransactions).changes()) {
                apply(change);
            }
            appliedTransactions++;
        }
        sourceLsn = lsn;
    }

    private void apply(SourceVersions.Change change) {
        if (!rules.reads(change.table())) {
            return;
        }
        String row = change.table() + "/" + change.key();
        for (String key : outputsOfRow.getOrDefault(row, List.of())) {
            expected.remove(key);
            changed.add(key);
        }
        outputsOfRow.remove(row);
        change.columns().ifPresent(columns -> {
            List<String> keys = new ArrayList<>();
            for (WorkloadRules.Output output : rules.evaluate(change.table(), change.key(), columns)) {
                expected.put(output.key(), output);
                keys.add(output.key());
                changed.add(output.key());
            }
            outputsOfRow.put(row, keys);
        });
    }

    private void readOps(Connection storage, long upTo, String where, List<Mismatch> mismatches)
        throws SQLException {
        try (PreparedStatement select = storage.prepareStatement("SELECT op_id, bucket, op, source_table, row_id,"
            + " checksum, data FROM tributary.bucket_data WHERE group_id = ? AND op_id > ? AND op_id <= ?"
            + " ORDER BY op_id")) {
            select.setLong(1, group);
            select.setLong(2, opId);
            select.setLong(3, upTo);
            select.setFetchSize(10_000);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(2) + "/" + rs.getString(4) + "/" + rs.getString(5);
                    short op = rs.getShort(3);
                    String data = op == 1 ? rs.getString(7) : null;
                    if (op != 1 && op != 2) {
                        mismatches.add(Mismatch.of("checkpoint-ops", where + " op " + rs.getLong(1) + " " + key,
                            "PUT (1) or REMOVE (2) (compaction is off)", Short.toString(op)));
                        continue;
                    }
                    long checksum = OpChecksum.of(rs.getString(4), rs.getString(5), data);
                    if (checksum != rs.getLong(6)) {
                        mismatches.add(Mismatch.of("checkpoint-ops", where + " op " + rs.getLong(1) + " " + key
                            + " checksum", Long.toString(checksum), Long.toString(rs.getLong(6))));
                    }
                    boolean was = data == null ? served.remove(key) != null : served.put(key, data) != null;
                    int delta = (data != null ? 1 : 0) - (was ? 1 : 0);
                    if (delta != 0) {
                        WorkloadRules.tenantTable(key).ifPresent(t -> servedOfTenant.merge(t, delta, Integer::sum));
                    }
                    changed.add(key);
                }
            }
        }
        opId = upTo;
    }
}
