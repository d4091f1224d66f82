package io.tributary.syncrules;

import java.util.Objects;

/**
 * One row as a member of one bucket: what a PUT op carries.
 *
 * @param bucket the bucket name, {@code <definition>[<parameter values as JSON>]}, e.g. {@code by_user["u1"]}
 * @param table  the output table name (the query's alias, else the source table's name without schema)
 * @param id     the row id: the text of the row's {@code id} output value
 * @param data   the output row as compact canonical JSON, keys in SELECT order
 */
public record BucketRow(String bucket, String table, String id, String data) {

    public BucketRow {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(data, "data");
    }

    /** The checksum of the PUT op of this row, see {@link Checksums#put}. */
    public long checksum() {
        return Checksums.put(table, id, data);
    }
}
