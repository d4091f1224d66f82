package io.tributary.api.protocol;

import java.util.List;
import java.util.Objects;

/**
 * A run of one bucket's ops, in op id order: the content of a {@code data} line.
 *
 * @param bucket    the bucket
 * @param after     the op id the run starts after (the client's position)
 * @param nextAfter the op id of the last op (the client's position once it applied the run)
 * @param hasMore   whether more ops of the bucket up to the checkpoint follow in later lines
 * @param ops       the ops, at least one, op ids ascending and above {@code after}
 */
public record DataBatch(String bucket, long after, long nextAfter, boolean hasMore, List<OpEntry> ops) {

    public DataBatch {
        Objects.requireNonNull(bucket, "bucket");
        ops = List.copyOf(ops);
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("A data batch of " + bucket + " holds at least one op");
        }
        long previous = after;
        for (OpEntry op : ops) {
            if (op.opId() <= previous) {
                throw new IllegalArgumentException("Ops of " + bucket + " out of order: " + op.opId() + " after "
                    + previous);
            }
            previous = op.opId();
        }
        if (nextAfter != previous) {
            throw new IllegalArgumentException("next_after of " + bucket + " is " + nextAfter + ", its last op "
                + previous);
        }
    }
}
