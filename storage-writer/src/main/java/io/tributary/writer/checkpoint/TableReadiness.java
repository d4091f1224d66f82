package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * One row of {@code table_readiness}: snapshot window {@code windowId} of {@code table} is complete in
 * {@code partition}, consistent from {@code highWatermark} on, as of the record after the partition's seal of
 * {@code readyAfterEpoch} ({@code -1}: before any seal).
 *
 * @param partition       the partition of {@code rows}
 * @param table           the source table
 * @param windowId        the completed snapshot window
 * @param highWatermark   the window's high watermark in the partition
 * @param readyAfterEpoch the partition's sealed epoch when the table-ready marker was read
 */
public record TableReadiness(int partition, TableId table, String windowId, Lsn highWatermark,
                             long readyAfterEpoch) {

    public TableReadiness {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(windowId, "windowId");
        Objects.requireNonNull(highWatermark, "highWatermark");
        if (partition < 0 || readyAfterEpoch < -1) {
            throw new IllegalArgumentException("Invalid readiness: partition " + partition + ", after epoch "
                + readyAfterEpoch);
        }
    }
}
