package io.tributary.writer.apply;

import io.tributary.storage.groups.LoadPhase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * Writes ops into the group's table of {@code bucket_data} ({@link LoadPhase#bucketData}: a partition, or detached
 * during the group's load phase) with one binary {@code COPY} ({@link BinaryCopy}) in the caller's transaction,
 * in the order of the table's key: by bucket, and by op id within a bucket. A batch's ops come in change order, which
 * spreads consecutive rows over the key's insertion points (one per bucket); in key order Postgres inserts each
 * bucket's ops one after the other into the same leaf of the key, and the heap keeps a bucket's ops of a batch
 * together, so a read of the bucket visits fewer pages. Op ids and checksums do not depend on the order.
 * Stateless and thread-safe; the connection is not.
 */
final class OpCopy {

    private static final String COLUMNS = " (group_id, bucket, op_id, op, source_table, row_id, checksum, data)";

    private OpCopy() {
    }

    /** Writes {@code ops[i]} with op id {@code opIds[i]}. */
    static void write(Connection connection, long groupId, List<BucketOp> ops, long[] opIds) throws SQLException {
        try (BinaryCopy copy = BinaryCopy.open(connection, LoadPhase.bucketData(groupId) + COLUMNS)) {
            for (int i : keyOrder(ops, opIds)) {
                BucketOp op = ops.get(i);
                copy.tuple(8);
                copy.int8(groupId);
                copy.text(op.bucket());
                copy.int8(opIds[i]);
                copy.int2(op.kind().code());
                copy.text(op.table());
                copy.text(op.rowId());
                copy.int8(op.checksum());
                if (op.dataUtf8() != null) {
                    copy.bytea(op.dataUtf8());
                } else {
                    copy.nullValue();
                }
            }
            copy.finish();
        }
    }

    /** The indexes of {@code ops} in the order of the key: by bucket, then by op id ({@code opIds[i]}). */
    static Integer[] keyOrder(List<BucketOp> ops, long[] opIds) {
        Integer[] order = new Integer[ops.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int byBucket = ops.get(a).bucket().compareTo(ops.get(b).bucket());
            return byBucket != 0 ? byBucket : Long.compare(opIds[a], opIds[b]);
        });
        return order;
    }
}
