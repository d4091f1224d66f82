package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.Lsn;
import java.util.Objects;

/**
 * One row of {@code sealed_epochs}: partition {@code partition} committed every record before barrier
 * {@code epoch}, whose LSN is {@code lsn}, and its highest op id then was {@code maxOpId}.
 *
 * @param partition     the partition of {@code rows}
 * @param epoch         the sealed epoch
 * @param lsn           the barrier's LSN
 * @param maxOpId       the partition's highest op id when it sealed the epoch ({@code 0} if none yet)
 * @param barrierOffset the offset of the barrier record in the partition, {@code -1} if unknown (a seal stored
 *                      before barrier offsets were)
 */
public record SealRow(int partition, long epoch, Lsn lsn, long maxOpId, long barrierOffset) {

    public SealRow {
        if (partition < 0 || epoch < 0 || maxOpId < 0 || barrierOffset < -1) {
            throw new IllegalArgumentException("Invalid seal: partition " + partition + ", epoch " + epoch
                + ", max op id " + maxOpId + ", barrier offset " + barrierOffset);
        }
        Objects.requireNonNull(lsn, "lsn");
    }
}
