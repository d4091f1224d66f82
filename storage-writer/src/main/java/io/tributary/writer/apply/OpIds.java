package io.tributary.writer.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The op ids of one apply transaction's writes, in ascending order, a batch's ops before its parameter lookup
 * versions, batch after batch. Each value {@code tributary.op_id_seq} hands out is the first of a block of
 * {@value #BLOCK} ids (the sequence increments by that much, schema step V71), so a transaction takes one value per
 * {@value #BLOCK} ids it needs; ids of a block it does not use are never used. Stateless.
 */
public final class OpIds {

    /** How many op ids one value of {@code tributary.op_id_seq} stands for: the sequence's increment. */
    static final int BLOCK = 1000;

    private static final String ALLOCATE = "SELECT nextval('tributary.op_id_seq'), (SELECT seqincrement"
        + " FROM pg_catalog.pg_sequence WHERE seqrelid = 'tributary.op_id_seq'::regclass) FROM generate_series(1, ?)";

    private OpIds() {
    }

    /**
     * Allocates the op ids of {@code ops} and lookup {@code versions} (per batch of a run) in one block, batch after
     * batch, a batch's ops before its versions, and writes both; returns the ids in that order.
     */
    static long[] allocateAndWrite(Connection connection, long groupId, ParameterLookups lookups,
                                   List<List<BucketOp>> ops, List<List<ParameterLookups.Version>> versions)
        throws SQLException {
        List<BucketOp> allOps = new ArrayList<>();
        ops.forEach(allOps::addAll);
        List<ParameterLookups.Version> allVersions = new ArrayList<>();
        versions.forEach(allVersions::addAll);
        int total = allOps.size() + allVersions.size();
        long[] ids = total == 0 ? new long[0] : allocate(connection, total);
        if (allVersions.isEmpty()) {
            if (ids.length > 0) {
                OpCopy.write(connection, groupId, allOps, ids);
            }
            return ids;
        }
        long[] opIds = new long[allOps.size()];
        long[] versionIds = new long[allVersions.size()];
        int next = 0;
        int op = 0;
        int version = 0;
        for (int i = 0; i < ops.size(); i++) {
            for (int j = 0; j < ops.get(i).size(); j++) {
                opIds[op++] = ids[next++];
            }
            for (int j = 0; j < versions.get(i).size(); j++) {
                versionIds[version++] = ids[next++];
            }
        }
        if (opIds.length > 0) {
            OpCopy.write(connection, groupId, allOps, opIds);
        }
        lookups.write(connection, allVersions, versionIds);
        return ids;
    }

    /**
     * {@code count} new op ids, ascending: the first {@code count} ids of the blocks of {@code ceil(count / BLOCK)}
     * sequence values.
     *
     * @throws IllegalStateException if the sequence does not increment by {@link #BLOCK} (the blocks of two writers
     *                               could overlap): nothing is allocated for use
     */
    public static long[] allocate(Connection connection, int count) throws SQLException {
        int blocks = (count + BLOCK - 1) / BLOCK;
        long[] starts = new long[blocks];
        try (PreparedStatement allocate = connection.prepareStatement(ALLOCATE)) {
            allocate.setInt(1, blocks);
            try (ResultSet rs = allocate.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    if (rs.getLong(2) != BLOCK) {
                        throw new IllegalStateException("tributary.op_id_seq increments by " + rs.getLong(2)
                            + ", but op ids are allocated in blocks of " + BLOCK + " (storage schema step V71):"
                            + " start this release against the storage database so that it migrates it, and do"
                            + " not alter the sequence by hand");
                    }
                    starts[i++] = rs.getLong(1);
                }
                if (i != blocks) {
                    throw new SQLException("Allocated " + i + " op id blocks instead of " + blocks);
                }
            }
        }
        Arrays.sort(starts);
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = starts[i / BLOCK] + i % BLOCK;
        }
        return ids;
    }
}
