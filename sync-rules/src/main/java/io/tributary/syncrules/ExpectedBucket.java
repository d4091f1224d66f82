package io.tributary.syncrules;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The reduced contents of one bucket: one PUT per row, as a client holds it after downloading the bucket.
 *
 * @param bucket   the bucket name
 * @param rows     the rows, sorted by table, then id, then data
 * @param checksum the sum of the rows' PUT checksums modulo 2^32 (see {@link Checksums})
 * @param count    the number of rows
 */
public record ExpectedBucket(String bucket, List<BucketRow> rows, long checksum, int count) {

    /** The order of rows within a bucket. */
    public static final Comparator<BucketRow> ROW_ORDER = Comparator.comparing(BucketRow::table)
        .thenComparing(BucketRow::id)
        .thenComparing(BucketRow::data);

    public ExpectedBucket {
        Objects.requireNonNull(bucket, "bucket");
        rows = List.copyOf(rows);
        for (BucketRow row : rows) {
            if (!row.bucket().equals(bucket)) {
                throw new IllegalArgumentException("row " + row + " is not in bucket " + bucket);
            }
        }
        if (count != rows.size()) {
            throw new IllegalArgumentException("count " + count + " but " + rows.size() + " rows");
        }
        if (checksum < 0 || checksum > Checksums.MASK) {
            throw new IllegalArgumentException("checksum out of the unsigned 32-bit range: " + checksum);
        }
    }

    /** The bucket holding {@code rows} (in any order): sorts them and computes checksum and count. */
    public static ExpectedBucket of(String bucket, List<BucketRow> rows) {
        List<BucketRow> sorted = rows.stream().sorted(ROW_ORDER).toList();
        long checksum = 0;
        for (BucketRow row : sorted) {
            checksum = Checksums.add(checksum, row.checksum());
        }
        return new ExpectedBucket(bucket, sorted, checksum, sorted.size());
    }
}
