package io.tributary.writer.apply;

/**
 * Where a batch is applied and under which claim.
 *
 * @param groupId      the sync rules group
 * @param partition    the partition of {@code rows}
 * @param fencingToken the token of the claim this writer holds on the partition
 * @param sealedEpoch  the newest epoch sealed in the partition, {@link #NO_EPOCH} if none
 */
public record ApplyTarget(long groupId, int partition, long fencingToken, long sealedEpoch) {

    /** No epoch sealed yet. */
    public static final long NO_EPOCH = -1;

    public ApplyTarget {
        if (groupId < 1 || partition < 0 || sealedEpoch < NO_EPOCH) {
            throw new IllegalArgumentException("Invalid apply target: group " + groupId + ", partition " + partition
                + ", sealed epoch " + sealedEpoch);
        }
    }
}
