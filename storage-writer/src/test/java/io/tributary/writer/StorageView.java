package io.tributary.writer;

import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.LoadPhase;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import io.tributary.testing.PostgresDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Reads what a group's writers stored, for assertions. */
final class StorageView {

    /** One row of {@code bucket_data}, read from the group's table (a partition, or detached while it loads). */
    record Op(long opId, String bucket, int op, String table, String rowId, long checksum, String data) {
    }

    private final PostgresDatabase db;
    private final long groupId;

    StorageView(PostgresDatabase db, long groupId) {
        this.db = db;
        this.groupId = groupId;
    }

    /** Every op of the group, by op id. */
    List<Op> ops() throws SQLException {
        try (Connection c = db.connect()) {
            return ops(c, Long.MAX_VALUE);
        }
    }

    /** The ops with op id {@code <= upTo}, by op id, read on {@code c}. */
    List<Op> ops(Connection c, long upTo) throws SQLException {
        List<Op> ops = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT op_id, bucket, op, source_table, row_id, checksum, data"
            + " FROM " + LoadPhase.bucketData(groupId) + " WHERE group_id = ? AND op_id <= ? ORDER BY op_id")) {
            s.setLong(1, groupId);
            s.setLong(2, upTo);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ops.add(new Op(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                        rs.getLong(6), rs.getString(7)));
                }
            }
        }
        return ops;
    }

    /** The buckets as a client holds them after downloading {@code ops}: the last op per row, PUTs kept. */
    static Map<String, ExpectedBucket> reduce(List<Op> ops) {
        Map<String, Map<String, Op>> last = new TreeMap<>();
        for (Op op : ops) {
            last.computeIfAbsent(op.bucket(), b -> new HashMap<>()).put(op.table() + "\u0000" + op.rowId(), op);
        }
        Map<String, ExpectedBucket> buckets = new TreeMap<>();
        last.forEach((bucket, rows) -> {
            List<BucketRow> present = new ArrayList<>();
            for (Op op : rows.values()) {
                if (op.op() == 1) {
                    present.add(new BucketRow(bucket, op.table(), op.rowId(), op.data()));
                }
            }
            if (!present.isEmpty()) {
                buckets.put(bucket, ExpectedBucket.of(bucket, present));
            }
        });
        return buckets;
    }

    /**
     * Problems of an op log that exactly-once application never produces: a REMOVE of a row not in the bucket, or
     * the same PUT (same row, same data) twice. Test workloads give every row version distinct data.
     */
    static List<String> exactlyOnceViolations(List<Op> ops) {
        Map<String, Boolean> present = new HashMap<>();
        Set<String> puts = new HashSet<>();
        List<String> violations = new ArrayList<>();
        for (Op op : ops) {
            String row = op.bucket() + "|" + op.table() + "|" + op.rowId();
            if (op.op() == 2) {
                if (!present.getOrDefault(row, false)) {
                    violations.add("REMOVE of absent row at op " + op.opId() + ": " + row);
                }
                present.put(row, false);
            } else {
                if (!puts.add(row + "|" + op.data())) {
                    violations.add("duplicate PUT at op " + op.opId() + ": " + row + " " + op.data());
                }
                present.put(row, true);
            }
        }
        return violations;
    }

    /** The stored next offset of each partition. */
    Map<Integer, Long> storedOffsets() throws SQLException {
        return perPartition("next_offset");
    }

    /** The fencing token of each partition: how many times a writer claimed it. */
    Map<Integer, Long> fencingTokens() throws SQLException {
        return perPartition("fencing_token");
    }

    private Map<Integer, Long> perPartition(String column) throws SQLException {
        Map<Integer, Long> values = new HashMap<>();
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT partition, " + column + " FROM tributary.partition_offsets WHERE group_id = ?")) {
            s.setLong(1, groupId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    values.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return values;
    }

    /** The newest published checkpoint. */
    Optional<Checkpoint> checkpoint() throws SQLException {
        try (Connection c = db.connect()) {
            return Checkpoints.current(c, groupId);
        }
    }

    /** The newest epoch sealed in each partition. */
    Map<Integer, Long> newestSeals() throws SQLException {
        Map<Integer, Long> seals = new HashMap<>();
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT partition, max(epoch) FROM tributary.sealed_epochs WHERE group_id = ? GROUP BY partition")) {
            s.setLong(1, groupId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    seals.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return seals;
    }
}
