package io.tributary.source.catalog;

import io.tributary.topics.messages.TableId;
import java.util.Optional;

/** Maps a column's {@code pg_type} entry to its {@link ColumnType}, or says why it is not supported. */
final class ColumnTypes {

    /** The catalog facts of one column that decide its type. */
    record CatalogRow(String name, int ordinal, long typeOid, String typeName, String formattedType, char typeType,
                      char typeCategory, long elementOid, String elementName, char elementTypeType,
                      boolean notNull, int declaredDimensions) {
    }

    private ColumnTypes() {
    }

    static SourceColumn resolve(TableId table, CatalogRow row) {
        boolean array = row.typeCategory() == 'A' && row.elementOid() != 0;
        if (array) {
            if (row.declaredDimensions() > 1) {
                throw unsupported(table, row, "declared with " + row.declaredDimensions()
                    + " dimensions; only one-dimensional arrays are supported");
            }
            ColumnType element = scalar(row.elementOid(), row.elementName(), row.elementTypeType())
                .orElseThrow(() -> unsupported(table, row, "arrays of " + row.elementName() + " are not supported"));
            if (!element.supportedAsArrayElement()) {
                throw unsupported(table, row, "arrays of " + element.sqlName() + " are not decoded exactly by"
                    + " Debezium");
            }
            return new SourceColumn(row.name(), row.ordinal(), row.typeName(), row.formattedType(),
                (int) row.typeOid(), element, true, Optional.of(row.elementName()), (int) row.elementOid(),
                element == ColumnType.ENUM, row.notNull());
        }
        ColumnType type = scalar(row.typeOid(), row.typeName(), row.typeType())
            .orElseThrow(() -> unsupported(table, row, reason(row)));
        return new SourceColumn(row.name(), row.ordinal(), row.typeName(), row.formattedType(), (int) row.typeOid(),
            type, false, Optional.empty(), 0, type == ColumnType.ENUM, row.notNull());
    }

    private static Optional<ColumnType> scalar(long oid, String name, char typeType) {
        if (typeType == 'e') {
            return Optional.of(ColumnType.ENUM);
        }
        if (typeType == 'b' && "citext".equals(name)) {
            return Optional.of(ColumnType.CITEXT);
        }
        if (oid > Integer.MAX_VALUE) {
            return Optional.empty();
        }
        return ColumnType.ofBuiltInOid((int) oid);
    }

    private static String reason(CatalogRow row) {
        return switch (row.typeType()) {
            case 'd' -> "a domain; domains are not supported, use the base type";
            case 'c' -> "a composite type";
            case 'r', 'm' -> "a range type";
            default -> "";
        };
    }

    private static UnsupportedColumnTypeException unsupported(TableId table, CatalogRow row, String reason) {
        return new UnsupportedColumnTypeException(table, row.name(), row.formattedType(), reason);
    }
}
