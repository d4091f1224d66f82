package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/** A column's type has no exact canonical encoding on both paths (WAL and JDBC), so the table is refused. */
public final class UnsupportedColumnTypeException extends SourceSchemaException {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final String columnType;

    public UnsupportedColumnTypeException(TableId table, String column, String columnType, String reason) {
        super(table, "Column " + quote(column) + " of source table " + table.quoted() + " has type " + columnType
            + ", which is not supported" + (reason.isEmpty() ? "" : " (" + reason + ")")
            + ". Supported: " + ColumnType.supportedList()
            + ". Change the column's type, or leave the table out of the sync rules.");
        this.column = Objects.requireNonNull(column, "column");
        this.columnType = Objects.requireNonNull(columnType, "columnType");
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** The column's name. */
    public String column() {
        return column;
    }

    /** The column's type as SQL prints it. */
    public String columnType() {
        return columnType;
    }
}
