package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * A source table a group reads, with its newest snapshot window (from {@code source_tables}): a checkpoint may
 * include the table only once that window is ready in every partition.
 *
 * @param table    the source table
 * @param windowId its newest snapshot window
 */
public record RequiredTable(TableId table, String windowId) {

    public RequiredTable {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(windowId, "windowId");
    }
}
