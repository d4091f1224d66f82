package io.tributary.bench.direct;

import io.tributary.syncrules.BucketRow;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * PUT ops of one sync rules group gathered as {@code COPY} text for {@code tributary.bucket_data}, the shape the
 * bench's direct loads write (the field's direct path, a storage filled without the pipeline). Not thread-safe.
 */
public final class PutCopyBatch {

    private final String groupText;
    private final CopyLines lines = new CopyLines("COPY tributary.bucket_data"
        + " (group_id, bucket, op_id, op, source_table, row_id, checksum, data) FROM STDIN", 1 << 20);

    /** A batch of ops of group {@code group}. */
    public PutCopyBatch(long group) {
        this.groupText = Long.toString(group);
    }

    /** Adds {@code op} as a PUT with op id {@code opId}. */
    public void add(long opId, BucketRow op) {
        lines.add(groupText + '\t' + CopyText.escape(op.bucket()) + '\t' + opId + "\t1\t"
            + CopyText.escape(op.table()) + '\t' + CopyText.escape(op.id()) + '\t' + op.checksum() + '\t'
            + CopyText.escape(op.data()) + '\n');
    }

    /** The ops added since the last flush. */
    public int size() {
        return lines.size();
    }

    /** Copies the ops added since the last flush into {@code storage} and commits its transaction. */
    public void flush(Connection storage) throws SQLException {
        if (lines.size() == 0) {
            return;
        }
        copyInto(storage);
        storage.commit();
    }

    /** Copies the ops added since the last flush into {@code storage}, in its open transaction. */
    public void copyInto(Connection storage) throws SQLException {
        lines.copyInto(storage);
    }
}
