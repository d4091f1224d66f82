package io.tributary.writer.consume;

/**
 * A writer's claim on one partition of {@code rows} for one group, as stored when it was taken.
 *
 * @param partition    the partition
 * @param fencingToken the token of this claim; any older token can no longer commit
 * @param nextOffset   the offset to resume from (every record before it is applied)
 * @param maxOpId      the partition's highest op id so far ({@code 0} if none)
 * @param sealedEpoch  the partition's newest sealed epoch, {@code -1} if none
 */
public record PartitionClaim(int partition, long fencingToken, long nextOffset, long maxOpId, long sealedEpoch) {

    public PartitionClaim {
        if (partition < 0 || fencingToken < 1 || nextOffset < 0 || maxOpId < 0 || sealedEpoch < -1) {
            throw new IllegalArgumentException("Invalid claim: partition " + partition + ", token " + fencingToken
                + ", next offset " + nextOffset + ", max op id " + maxOpId + ", sealed epoch " + sealedEpoch);
        }
    }
}
