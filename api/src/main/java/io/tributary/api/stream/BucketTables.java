package io.tributary.api.stream;

/** The storage partitions a group's reads go to directly (no partition pruning per statement). */
final class BucketTables {

    private BucketTables() {
    }

    /** The {@code bucket_data} partition of group {@code groupId}. */
    static String bucketData(long groupId) {
        if (groupId <= 0) {
            throw new IllegalArgumentException("Group ids are > 0: " + groupId);
        }
        return "tributary.bucket_data_g" + groupId;
    }

    /**
     * The condition on {@code d.group_id} a read of the partition needs: its key is {@code (group_id, bucket, op_id)},
     * so without it a bucket's range is not an index range (the whole index or table is scanned per bucket).
     */
    static String groupKey(long groupId) {
        bucketData(groupId);
        return "d.group_id = " + groupId;
    }
}
