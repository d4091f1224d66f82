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
}
