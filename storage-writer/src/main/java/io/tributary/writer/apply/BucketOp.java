package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Checksums;
import java.util.Objects;
import java.util.Optional;

/**
 * One bucket op before it gets its {@code op_id}.
 *
 * @param kind     PUT or REMOVE
 * @param bucket   the bucket
 * @param table    the output table name
 * @param rowId    the row id
 * @param checksum the op checksum ({@link Checksums}), unsigned 32-bit
 * @param data     the row JSON for a PUT, empty for a REMOVE
 */
public record BucketOp(OpKind kind, String bucket, String table, String rowId, long checksum, Optional<String> data) {

    public BucketOp {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(rowId, "rowId");
        Objects.requireNonNull(data, "data");
        if (checksum < 0 || checksum > Checksums.MASK) {
            throw new IllegalArgumentException("checksum outside the unsigned 32-bit range: " + checksum);
        }
        if (data.isPresent() != (kind == OpKind.PUT)) {
            throw new IllegalArgumentException("A PUT carries data and a REMOVE none, got " + kind + " " + data);
        }
    }

    /** The PUT of {@code row}. */
    public static BucketOp put(BucketRow row) {
        return new BucketOp(OpKind.PUT, row.bucket(), row.table(), row.id(), row.checksum(), Optional.of(row.data()));
    }

    /** The REMOVE of the row of {@code membership} from its bucket. */
    public static BucketOp remove(Membership membership) {
        return new BucketOp(OpKind.REMOVE, membership.bucket(), membership.table(), membership.id(),
            Checksums.remove(membership.table(), membership.id()), Optional.empty());
    }
}
