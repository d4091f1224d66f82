package io.tributary.source.encoding;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * A value of a source row has no canonical encoding (see the package comment for the supported values), or the
 * input does not have the shape the encoder was built for. Says which table and column.
 */
public final class EncodingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient TableId table;
    private final String column;

    public EncodingException(TableId table, String column, String reason, Throwable cause) {
        super("Cannot encode column \"" + column + "\" of source table " + table.quoted() + ": " + reason, cause);
        this.table = Objects.requireNonNull(table, "table");
        this.column = Objects.requireNonNull(column, "column");
    }

    /** The table of the row. */
    public TableId table() {
        return table;
    }

    /** The column whose value could not be encoded. */
    public String column() {
        return column;
    }
}
