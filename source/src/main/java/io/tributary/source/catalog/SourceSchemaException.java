package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * A source table cannot be replicated as it is: someone has to change the table (or the configuration). Never
 * worth retrying. The message names the table and says what to do.
 */
public class SourceSchemaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient TableId table;

    public SourceSchemaException(TableId table, String message) {
        super(message);
        this.table = Objects.requireNonNull(table, "table");
    }

    /** The table concerned. */
    public TableId table() {
        return table;
    }
}
