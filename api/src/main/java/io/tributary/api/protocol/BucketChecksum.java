package io.tributary.api.protocol;

import java.util.Objects;

/**
 * A bucket's state at a checkpoint, as the client verifies it after downloading: the wrapping 32-bit sum of the
 * checksums of every op with {@code op_id <= checkpoint} (superseded PUTs and REMOVEs included) and their number.
 *
 * @param bucket   the bucket name
 * @param checksum the sum modulo 2^32, as a signed 32-bit integer (how PowerSync sends it)
 * @param count    the number of ops, &gt;= 0
 * @param priority the bucket's priority, 0 (first) to 3 (the default)
 */
public record BucketChecksum(String bucket, int checksum, long count, int priority) {

    public BucketChecksum {
        Objects.requireNonNull(bucket, "bucket");
        if (count < 0) {
            throw new IllegalArgumentException("Op count of " + bucket + " is negative: " + count);
        }
        if (priority < 0 || priority > 3) {
            throw new IllegalArgumentException("Priority of " + bucket + " is outside 0..3: " + priority);
        }
    }

    /** Whether the client must download again: the ops changed (checksum or count) or the priority did. */
    public boolean differsFrom(BucketChecksum other) {
        return checksum != other.checksum || count != other.count || priority != other.priority;
    }
}
