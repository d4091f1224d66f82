package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TableKeyRangeTest {

    @Test
    void everyKeyOfTheTableIsInsideAndKeysOfSimilarTablesOutside() {
        TableKeyRange range = TableKeyRange.of(TableId.of("public", "todos"));

        assertThat(inside(range, RowKey.of(TableId.of("public", "todos"), KeyValues.of("[\"a\"]")))).isTrue();
        assertThat(inside(range, RowKey.of(TableId.of("public", "todos"), KeyValues.of("[1,2]")))).isTrue();
        assertThat(inside(range, RowKey.of(TableId.of("public", "todos2"), KeyValues.of("[1]")))).isFalse();
        assertThat(inside(range, RowKey.of(TableId.of("public", "todo"), KeyValues.of("[1]")))).isFalse();
        assertThat(inside(range, RowKey.of(TableId.of("publicx", "todos"), KeyValues.of("[1]")))).isFalse();
    }

    private static boolean inside(TableKeyRange range, RowKey key) {
        byte[] bytes = RecordKeys.encode(key);
        return Arrays.compareUnsigned(bytes, range.from()) >= 0 && Arrays.compareUnsigned(bytes, range.to()) < 0;
    }
}
