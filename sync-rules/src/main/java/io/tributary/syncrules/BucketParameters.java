package io.tributary.syncrules;

import java.util.Objects;

/**
 * A bucket a client may see, as given by its definition's parameter queries.
 *
 * @param definition the bucket definition name
 * @param bucket     the bucket name, {@code <definition>[<parameter values as JSON>]}
 */
public record BucketParameters(String definition, String bucket) {

    public BucketParameters {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(bucket, "bucket");
        if (!bucket.startsWith(definition + "[") || !bucket.endsWith("]")) {
            throw new IllegalArgumentException("bucket " + bucket + " is not a bucket of " + definition);
        }
    }
}
