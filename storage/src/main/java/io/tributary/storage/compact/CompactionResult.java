package io.tributary.storage.compact;

/**
 * What one compaction pass over a group did.
 *
 * @param checkpoint the published checkpoint it compacted up to (0 = the group had none, nothing was done)
 * @param buckets    the buckets it compacted or went on with (one it stopped inside counts in both passes)
 * @param moved      the PUT and REMOVE ops it turned into MOVEs
 * @param cleared    the ops it folded into CLEAR ops (the CLEARs themselves not counted)
 * @param parameterVersions the superseded parameter lookup versions it deleted
 * @param roundEnded true when it reached the group's last bucket, so a round over every bucket ended in this
 *                   pass; false when its bound on ops stopped it first (the next pass goes on) or it did nothing
 */
public record CompactionResult(long checkpoint, long buckets, long moved, long cleared, long parameterVersions,
                               boolean roundEnded) {

    public CompactionResult {
        if (checkpoint < 0 || buckets < 0 || moved < 0 || cleared < 0 || parameterVersions < 0) {
            throw new IllegalArgumentException("Compaction figures are >= 0: " + checkpoint + ", " + buckets + ", "
                + moved + ", " + cleared + ", " + parameterVersions);
        }
    }

    /** Nothing compacted: the group has no published checkpoint yet, or another compaction holds it. */
    public static CompactionResult none() {
        return new CompactionResult(0, 0, 0, 0, 0, false);
    }
}
