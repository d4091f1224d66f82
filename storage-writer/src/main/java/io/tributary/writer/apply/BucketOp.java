package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Checksums;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * One bucket op before it gets its {@code op_id}. A PUT also keeps its row JSON as UTF-8 bytes, encoded once for its
 * checksum and copied as they are into storage. Immutable and thread-safe; equal by kind, bucket, table, row id,
 * checksum and data.
 */
public final class BucketOp {

    private final OpKind kind;
    private final String bucket;
    private final String table;
    private final String rowId;
    private final long checksum;
    private final Optional<String> data;
    private final byte[] dataUtf8;

    /**
     * An op.
     *
     * @param kind     PUT or REMOVE
     * @param bucket   the bucket
     * @param table    the output table name
     * @param rowId    the row id
     * @param checksum the op checksum ({@link Checksums}), unsigned 32-bit
     * @param data     the row JSON for a PUT, empty for a REMOVE
     */
    public BucketOp(OpKind kind, String bucket, String table, String rowId, long checksum, Optional<String> data) {
        this(kind, bucket, table, rowId, checksum, data,
            data.map(text -> text.getBytes(StandardCharsets.UTF_8)).orElse(null));
    }

    private BucketOp(OpKind kind, String bucket, String table, String rowId, long checksum, Optional<String> data,
                     byte[] dataUtf8) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.table = Objects.requireNonNull(table, "table");
        this.rowId = Objects.requireNonNull(rowId, "rowId");
        this.data = Objects.requireNonNull(data, "data");
        if (checksum < 0 || checksum > Checksums.MASK) {
            throw new IllegalArgumentException("checksum outside the unsigned 32-bit range: " + checksum);
        }
        if (data.isPresent() != (kind == OpKind.PUT)) {
            throw new IllegalArgumentException("A PUT carries data and a REMOVE none, got " + kind + " " + data);
        }
        this.checksum = checksum;
        this.dataUtf8 = dataUtf8;
    }

    /** The PUT of {@code row}, its checksum computed over the UTF-8 of its data. */
    public static BucketOp put(BucketRow row) {
        byte[] utf8 = row.data().getBytes(StandardCharsets.UTF_8);
        return new BucketOp(OpKind.PUT, row.bucket(), row.table(), row.id(), Checksums.put(row.table(), row.id(), utf8),
            Optional.of(row.data()), utf8);
    }

    /** The REMOVE of the row of {@code membership} from its bucket. */
    public static BucketOp remove(Membership membership) {
        return new BucketOp(OpKind.REMOVE, membership.bucket(), membership.table(), membership.id(),
            Checksums.remove(membership.table(), membership.id()), Optional.empty(), null);
    }

    /** PUT or REMOVE. */
    public OpKind kind() {
        return kind;
    }

    /** The bucket. */
    public String bucket() {
        return bucket;
    }

    /** The output table name. */
    public String table() {
        return table;
    }

    /** The row id. */
    public String rowId() {
        return rowId;
    }

    /** The op checksum ({@link Checksums}), unsigned 32-bit. */
    public long checksum() {
        return checksum;
    }

    /** The row JSON for a PUT, empty for a REMOVE. */
    public Optional<String> data() {
        return data;
    }

    /** The UTF-8 of the row JSON of a PUT, not to be modified; {@code null} for a REMOVE. */
    byte[] dataUtf8() {
        return dataUtf8;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BucketOp that && kind == that.kind && checksum == that.checksum
            && bucket.equals(that.bucket) && table.equals(that.table) && rowId.equals(that.rowId)
            && data.equals(that.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, bucket, table, rowId, checksum, data);
    }

    @Override
    public String toString() {
        return "BucketOp[kind=" + kind + ", bucket=" + bucket + ", table=" + table + ", rowId=" + rowId
            + ", checksum=" + checksum + ", data=" + data + "]";
    }
}
