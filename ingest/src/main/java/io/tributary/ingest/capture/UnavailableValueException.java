package io.tributary.ingest.capture;

import io.tributary.topics.messages.TableId;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A captured UPDATE did not carry every column value: unchanged TOASTed values are not in the WAL unless the table
 * has {@code REPLICA IDENTITY FULL}. Ingest never emits a placeholder, so it stops; the message names the table, the
 * columns and the fix.
 */
public final class UnavailableValueException extends CaptureSetupException {

    private static final long serialVersionUID = 1L;

    private final transient TableId table;
    private final Set<String> columns;

    public UnavailableValueException(TableId table, Set<String> columns) {
        super("An UPDATE of source table " + table.quoted() + " left TOASTed column(s) " + new TreeSet<>(columns)
            + " unchanged, so their values are not in the WAL. Fix: ALTER TABLE " + table.quoted()
            + " REPLICA IDENTITY FULL; (or let ingest do it: replica identity FULL is on by default in the ingest"
            + " configuration), then restart ingest.");
        this.table = Objects.requireNonNull(table, "table");
        this.columns = Set.copyOf(columns);
    }

    /** The table of the row. */
    public TableId table() {
        return table;
    }

    /** The columns whose values were missing. */
    public Set<String> columns() {
        return columns;
    }
}
