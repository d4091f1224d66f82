package io.tributary.api.protocol;

import java.util.Objects;

/**
 * One encoded {@code data} line of a bucket, ready to send.
 *
 * @param bucket    the bucket
 * @param nextAfter the op id of its last op: the client's position in the bucket once it applied the line
 * @param ops       the number of ops it carries, &gt; 0
 * @param bytes     the line, ending in {@code \n}
 */
public record DataLine(String bucket, long nextAfter, int ops, byte[] bytes) {

    public DataLine {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(bytes, "bytes");
        if (ops <= 0) {
            throw new IllegalArgumentException("A data line of " + bucket + " carries at least one op");
        }
    }
}
