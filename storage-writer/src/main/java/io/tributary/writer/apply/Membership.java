package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import java.util.Objects;

/**
 * One row's presence in one bucket, as {@code current_data} remembers it: enough to emit its REMOVE.
 *
 * @param bucket the bucket name
 * @param table  the output table name
 * @param id     the row id
 */
public record Membership(String bucket, String table, String id) {

    public Membership {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(id, "id");
    }

    /** The membership a bucket row establishes. */
    public static Membership of(BucketRow row) {
        return new Membership(row.bucket(), row.table(), row.id());
    }
}
