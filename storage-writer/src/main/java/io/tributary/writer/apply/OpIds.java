package io.tributary.writer.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The op ids of one apply transaction's writes: one block from {@code tributary.op_id_seq}, in ascending order, a
 * batch's ops before its parameter lookup versions, batch after batch. Stateless.
 */
final class OpIds {

    private static final String ALLOCATE = "SELECT nextval('tributary.op_id_seq') FROM generate_series(1, ?)";

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

    private static long[] allocate(Connection connection, int count) throws SQLException {
        long[] ids = new long[count];
        try (PreparedStatement allocate = connection.prepareStatement(ALLOCATE)) {
            allocate.setInt(1, count);
            try (ResultSet rs = allocate.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    ids[i++] = rs.getLong(1);
                }
                if (i != count) {
                    throw new SQLException("Allocated " + i + " op ids instead of " + count);
                }
            }
        }
        Arrays.sort(ids);
        return ids;
    }
}
