package io.tributary.source.encoding;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * How Debezium 3.6 marks an unchanged TOASTed value in a new tuple (see {@code UnchangedToastedPlaceholder}): the
 * placeholder string for string-valued columns, its bytes for {@code bytea}, and for some array types a list
 * derived from it (one placeholder string for text-like and JSON arrays, one placeholder byte string for
 * {@code bytea[]}, the placeholder's bytes as numbers for {@code int4[]}, {@code date[]} and {@code int8[]}, a
 * name-based UUID of it for {@code uuid[]}). Other array types get NULL (Debezium fails to convert its marker).
 */
final class UnavailableValues {

    private static final String TEXT = DebeziumDecodingSettings.UNAVAILABLE_VALUE_PLACEHOLDER;
    private static final byte[] BYTES = DebeziumDecodingSettings.UNAVAILABLE_VALUE_PLACEHOLDER_BYTES;

    private UnavailableValues() {
    }

    /** Recognizes the placeholder among the non-null Connect values of a column. */
    static Predicate<Object> placeholderOf(SourceColumn column) {
        if (!column.array()) {
            if (column.type() == ColumnType.BYTEA) {
                return UnavailableValues::isPlaceholderBytes;
            }
            return TEXT::equals;
        }
        switch (column.type()) {
            case TEXT, VARCHAR, BPCHAR, JSON, JSONB -> {
                List<String> marker = List.of(TEXT);
                return marker::equals;
            }
            case BYTEA -> {
                return v -> v instanceof List<?> list && list.size() == 1 && isPlaceholderBytes(list.get(0));
            }
            case INT4, DATE -> {
                List<Integer> marker = new ArrayList<>();
                for (byte b : BYTES) {
                    marker.add((int) b);
                }
                return marker::equals;
            }
            case INT8 -> {
                List<Long> marker = new ArrayList<>();
                for (byte b : BYTES) {
                    marker.add((long) b);
                }
                return marker::equals;
            }
            case UUID -> {
                List<String> marker = List.of(UUID.nameUUIDFromBytes(BYTES).toString());
                return marker::equals;
            }
            default -> {
                return v -> false;
            }
        }
    }

    /**
     * Whether Debezium emits NULL instead of a placeholder for an unchanged TOASTed value of this column, so a
     * NULL in a new tuple without the old values may stand for an unavailable value.
     */
    static boolean nullMayBeUnavailable(SourceColumn column) {
        if (!column.array()) {
            return false;
        }
        return switch (column.type()) {
            case TEXT, VARCHAR, BPCHAR, JSON, JSONB, BYTEA, INT4, DATE, INT8, UUID -> false;
            default -> true;
        };
    }

    private static boolean isPlaceholderBytes(Object value) {
        if (value instanceof byte[] bytes) {
            return Arrays.equals(bytes, BYTES);
        }
        if (value instanceof ByteBuffer buffer) {
            return buffer.remaining() == BYTES.length && buffer.duplicate().equals(ByteBuffer.wrap(BYTES));
        }
        return false;
    }
}
