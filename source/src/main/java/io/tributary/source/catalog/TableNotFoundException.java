package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;

/** The table does not exist in the source database (or is not a table: a view, a sequence, ...). */
public final class TableNotFoundException extends SourceSchemaException {

    private static final long serialVersionUID = 1L;

    public TableNotFoundException(TableId table, String detail) {
        super(table, "Source table " + table.quoted() + " " + detail);
    }
}
