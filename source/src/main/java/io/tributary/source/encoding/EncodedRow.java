package io.tributary.source.encoding;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The canonical encoding of one source row: its key, and its row JSON unless some column values were not in the
 * change event (unchanged TOASTed values of an UPDATE). An incomplete row never carries a placeholder: the row is
 * absent and {@link #unavailableColumns()} names what is missing, so the caller can re-read the row or take the
 * values from a complete old tuple.
 *
 * @param row                the row JSON, present iff no column is unavailable
 * @param key                the key values JSON array
 * @param unavailableColumns the columns whose values the event did not carry (empty iff the row is present)
 */
public record EncodedRow(Optional<RowJson> row, KeyValues key, Set<String> unavailableColumns) {

    public EncodedRow {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(key, "key");
        unavailableColumns = Set.copyOf(unavailableColumns);
        if (row.isPresent() == !unavailableColumns.isEmpty()) {
            throw new IllegalArgumentException("A row is present iff no column is unavailable; unavailable: "
                + unavailableColumns);
        }
    }

    /** A row with every value. */
    public static EncodedRow complete(RowJson row, KeyValues key) {
        return new EncodedRow(Optional.of(row), key, Set.of());
    }

    /** A row some of whose values were not in the event. */
    public static EncodedRow incomplete(KeyValues key, Set<String> unavailableColumns) {
        if (unavailableColumns.isEmpty()) {
            throw new IllegalArgumentException("An incomplete row names at least one unavailable column");
        }
        return new EncodedRow(Optional.empty(), key, unavailableColumns);
    }

    /** Whether every column value is known. */
    public boolean isComplete() {
        return row.isPresent();
    }
}
