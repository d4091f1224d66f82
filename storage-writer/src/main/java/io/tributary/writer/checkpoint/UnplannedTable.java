package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * A source table the group's writers applied rows of that has no snapshot window at all (from {@code table_rows}
 * and {@code source_tables}): created, or first matched by a wildcard, after the group was planned. Its streamed
 * rows are in storage but its existing rows are not, so no checkpoint may include it until its window is ready.
 *
 * @param table          the source table
 * @param seenAfterEpoch the earliest sealed epoch, over the partitions, before its first rows ({@code -1}: before
 *                       any seal); every checkpoint at an epoch above it includes some of its rows
 */
public record UnplannedTable(TableId table, long seenAfterEpoch) {

    public UnplannedTable {
        Objects.requireNonNull(table, "table");
        if (seenAfterEpoch < -1) {
            throw new IllegalArgumentException("Invalid epoch " + seenAfterEpoch + " for " + table);
        }
    }
}
