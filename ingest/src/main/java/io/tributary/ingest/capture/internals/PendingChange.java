package io.tributary.ingest.capture.internals;

import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import java.util.Objects;
import java.util.Optional;

/** One decoded item of a transaction whose commit LSN is not known yet. */
sealed interface PendingChange {

    /** A row change: the row for inserts and updates, the key only for deletes. */
    record Row(TableId table, ChangeOp op, KeyValues pk, Optional<RowJson> row) implements PendingChange {
        public Row {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(pk, "pk");
            Objects.requireNonNull(row, "row");
        }
    }

    /** A {@code TRUNCATE} of a table. */
    record Truncate(TableId table) implements PendingChange {
        public Truncate {
            Objects.requireNonNull(table, "table");
        }
    }

    /**
     * A planner's window marker for a table; {@code replaces}: the window replaces the table's rows written before
     * it (a re-snapshot), so a truncation of the table precedes the marker.
     */
    record Window(TableId table, String windowId, boolean replaces) implements PendingChange {
        public Window {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(windowId, "windowId");
        }
    }
}
