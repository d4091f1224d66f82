package io.tributary.storage.compact;

/**
 * What one compaction of a group did.
 *
 * @param checkpoint the published checkpoint it compacted up to (0 = the group had none, nothing was done)
 * @param buckets    the buckets it visited
 * @param moved      the PUT and REMOVE ops it turned into MOVEs
 * @param cleared    the ops it folded into CLEAR ops (the CLEARs themselves not counted)
 * @param parameterVersions the superseded parameter lookup versions it deleted
 */
public record CompactionResult(long checkpoint, long buckets, long moved, long cleared, long parameterVersions) {

    public CompactionResult {
        if (checkpoint < 0 || buckets < 0 || moved < 0 || cleared < 0 || parameterVersions < 0) {
            throw new IllegalArgumentException("Compaction figures are >= 0: " + checkpoint + ", " + buckets + ", "
                + moved + ", " + cleared + ", " + parameterVersions);
        }
    }

    /** Nothing compacted: the group has no published checkpoint yet, or another compaction holds it. */
    public static CompactionResult none() {
        return new CompactionResult(0, 0, 0, 0, 0);
    }
}
