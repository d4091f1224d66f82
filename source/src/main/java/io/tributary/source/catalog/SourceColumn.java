package io.tributary.source.catalog;

import java.util.Objects;
import java.util.Optional;

/**
 * One column of a source table as the catalog describes it.
 *
 * @param name            the column name, exactly as stored
 * @param ordinal         {@code pg_attribute.attnum} (1-based; gaps where columns were dropped)
 * @param typeName        {@code pg_type.typname} of the column type ({@code int4}, {@code _text}, {@code mood})
 * @param formattedType   the type as SQL prints it ({@code integer[]}, {@code numeric(10,2)})
 * @param typeOid         the column type's oid
 * @param type            the canonical type of the value, or of each element for arrays
 * @param array           whether the column is a (one-dimensional) array of {@code type}
 * @param elementTypeName {@code pg_type.typname} of the element type, for arrays
 * @param elementTypeOid  the element type's oid for arrays, else 0
 * @param enumType        whether the value (or element) type is an enum
 * @param notNull         whether the column is declared {@code NOT NULL}
 */
public record SourceColumn(String name, int ordinal, String typeName, String formattedType, int typeOid,
                           ColumnType type, boolean array, Optional<String> elementTypeName, int elementTypeOid,
                           boolean enumType, boolean notNull) {

    public SourceColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeName, "typeName");
        Objects.requireNonNull(formattedType, "formattedType");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(elementTypeName, "elementTypeName");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("A column needs a name");
        }
        if (ordinal < 1) {
            throw new IllegalArgumentException("Column " + name + ": ordinal must be >= 1, got " + ordinal);
        }
        if (array != elementTypeName.isPresent()) {
            throw new IllegalArgumentException("Column " + name + ": an element type is given iff it is an array");
        }
        if (array && !type.supportedAsArrayElement()) {
            throw new IllegalArgumentException("Column " + name + ": arrays of " + type + " are not supported");
        }
        if (enumType != (type == ColumnType.ENUM)) {
            throw new IllegalArgumentException("Column " + name + ": enumType must match type ENUM");
        }
    }

    /** A scalar column (tests and tools; the catalog fills in the real oids). */
    public static SourceColumn scalar(String name, int ordinal, ColumnType type) {
        return new SourceColumn(name, ordinal, type.name().toLowerCase(java.util.Locale.ROOT), type.sqlName(),
            type.oid(), type, false, Optional.empty(), 0, type == ColumnType.ENUM, false);
    }

    /** A one-dimensional array column of {@code elementType} (tests and tools). */
    public static SourceColumn arrayOf(String name, int ordinal, ColumnType elementType) {
        String element = elementType.name().toLowerCase(java.util.Locale.ROOT);
        return new SourceColumn(name, ordinal, "_" + element, elementType.sqlName() + "[]", 0, elementType, true,
            Optional.of(element), elementType.oid(), elementType == ColumnType.ENUM, false);
    }
}
