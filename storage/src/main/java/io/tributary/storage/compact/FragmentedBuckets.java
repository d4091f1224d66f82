package io.tributary.storage.compact;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The buckets of a group that compaction cannot shrink further: more ops per live row than a bound, because live
 * PUTs sit before MOVEs or REMOVEs and a CLEAR only folds the ops before a bucket's first live PUT. Such a bucket
 * is defragmented at the source: rewriting its stranded rows (an {@code UPDATE} that sets a column to itself)
 * appends their PUTs at the bucket's end, and the next compaction folds everything before them.
 */
public final class FragmentedBuckets {

    /** How many row ids of a table {@link Stranded#sampleIds()} holds at most. */
    public static final int SAMPLE_IDS = 20;

    private FragmentedBuckets() {
    }

    /**
     * A fragmented bucket.
     *
     * @param bucket   the bucket's name
     * @param ops      its ops
     * @param liveRows its rows whose latest op is a PUT (more than 0)
     * @param stranded per output table, its live rows whose PUT lies before the bucket's last MOVE or REMOVE
     */
    public record Bucket(String bucket, long ops, long liveRows, List<Stranded> stranded) {

        /** Ops per live row. */
        public double opsPerLiveRow() {
            return (double) ops / liveRows;
        }
    }

    /**
     * The live rows of one output table stranded before a bucket's last MOVE or REMOVE.
     *
     * @param table     the output table (the name the bucket's query gives the source table)
     * @param rows      how many
     * @param sampleIds the lowest {@link #SAMPLE_IDS} of their row ids, in text order
     */
    public record Stranded(String table, long rows, List<String> sampleIds) {
    }

    /**
     * The buckets of group {@code groupId} with more than {@code maxOpsPerLiveRow} ops per live row, in name order.
     * Reads every op of the group once; meant after a compaction, when every superseded op up to the checkpoint
     * is a MOVE.
     *
     * @throws IllegalArgumentException if {@code groupId <= 0} or {@code maxOpsPerLiveRow < 1}
     */
    public static List<Bucket> of(Connection connection, long groupId, double maxOpsPerLiveRow) throws SQLException {
        if (groupId <= 0) {
            throw new IllegalArgumentException("Group ids are > 0: " + groupId);
        }
        if (!(maxOpsPerLiveRow >= 1)) {
            throw new IllegalArgumentException("A bucket holds at least one op per live row: " + maxOpsPerLiveRow);
        }
        String table = "tributary.bucket_data_g" + groupId;
        String sql = "WITH latest AS (SELECT DISTINCT ON (bucket, source_table, row_id) bucket, source_table, row_id,"
            + " op, op_id FROM " + table + " WHERE op IN (1, 2) ORDER BY bucket, source_table, row_id, op_id DESC),"
            + " sizes AS (SELECT bucket, count(*) AS ops, max(op_id) FILTER (WHERE op IN (2, 3)) AS last_dead"
            + " FROM " + table + " GROUP BY bucket),"
            + " live AS (SELECT bucket, count(*) AS rows FROM latest WHERE op = 1 GROUP BY bucket),"
            + " fragmented AS (SELECT s.bucket, s.ops, l.rows, s.last_dead FROM sizes s JOIN live l USING (bucket)"
            + " WHERE s.ops > ? * l.rows)"
            + " SELECT f.bucket, f.ops, f.rows, x.source_table, count(x.row_id),"
            + " (array_agg(x.row_id ORDER BY x.row_id))[1:" + SAMPLE_IDS + "]"
            + " FROM fragmented f LEFT JOIN latest x ON x.bucket = f.bucket AND x.op = 1 AND x.op_id < f.last_dead"
            + " GROUP BY f.bucket, f.ops, f.rows, x.source_table ORDER BY f.bucket, x.source_table";
        Map<String, Bucket> buckets = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setDouble(1, maxOpsPerLiveRow);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    long ops = rs.getLong(2);
                    long live = rs.getLong(3);
                    Bucket bucket = buckets.computeIfAbsent(rs.getString(1),
                        name -> new Bucket(name, ops, live, new ArrayList<>()));
                    String outputTable = rs.getString(4);
                    if (outputTable != null) {
                        bucket.stranded().add(new Stranded(outputTable, rs.getLong(5),
                            List.of((String[]) rs.getArray(6).getArray())));
                    }
                }
            }
        }
        return buckets.values().stream()
            .map(b -> new Bucket(b.bucket(), b.ops(), b.liveRows(), List.copyOf(b.stranded())))
            .toList();
    }

    /**
     * The statement that defragments {@code stranded} at the source, assuming the source table is named as the
     * output table and keyed by {@code id}: the rows by id when all their ids are in the sample, else the whole
     * table.
     */
    public static String rewriteStatement(Stranded stranded) {
        String table = "\"" + stranded.table().replace("\"", "\"\"") + "\"";
        if (stranded.rows() > stranded.sampleIds().size()) {
            return "UPDATE " + table + " SET id = id;";
        }
        List<String> literals = stranded.sampleIds().stream().map(id -> "'" + id.replace("'", "''") + "'").toList();
        return "UPDATE " + table + " SET id = id WHERE id IN (" + String.join(", ", literals) + ");";
    }
}
