package io.tributary.writer.apply;

import io.tributary.storage.groups.LoadPhase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes ops into the group's table of {@code bucket_data} ({@link LoadPhase#bucketData}: a partition, or detached
 * during the group's load phase) with one binary {@code COPY} ({@link BinaryCopy}) in the caller's transaction.
 * Stateless and thread-safe; the connection is not.
 */
final class OpCopy {

    private static final String COLUMNS = " (group_id, bucket, op_id, op, source_table, row_id, checksum, data)";

    private OpCopy() {
    }

    /** Writes {@code ops[i]} with op id {@code opIds[i]}. */
    static void write(Connection connection, long groupId, List<BucketOp> ops, long[] opIds) throws SQLException {
        try (BinaryCopy copy = BinaryCopy.open(connection, LoadPhase.bucketData(groupId) + COLUMNS)) {
            for (int i = 0; i < ops.size(); i++) {
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
}
