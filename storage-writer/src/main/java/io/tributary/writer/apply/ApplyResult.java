package io.tributary.writer.apply;

import java.util.OptionalLong;

/**
 * What a committed batch did.
 *
 * @param ops         ops written
 * @param maxOpId     the partition's highest op id after the batch
 * @param sealedEpoch the epoch the batch sealed, if it ended with a new barrier
 * @param nextOffset  the partition's stored next offset after the batch
 */
public record ApplyResult(int ops, long maxOpId, OptionalLong sealedEpoch, long nextOffset) {
}
