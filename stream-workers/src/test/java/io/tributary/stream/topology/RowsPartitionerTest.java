package io.tributary.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowsPartitionerTest {

    private static final TableId ITEMS = TableId.of("public", "items");
    private final RowsPartitioner partitioner = new RowsPartitioner();

    @Test
    void rowKeyGoesToThePartitionOfItsBytes() {
        for (int id = 0; id < 50; id++) {
            byte[] key = RecordKeys.encode(RowKey.of(ITEMS, KeyValues.of("[" + id + "]")));
            assertThat(partitioner.partitions("rows", key, new byte[0], 6))
                .contains(Set.of(Partitioning.partitionFor(key, 6)));
        }
    }

    @Test
    void rowKeysAreRecognizedWithoutDecodingAndMarkerKeysAreNot() {
        assertThat(RowsPartitioner.isRowKey(RecordKeys.encode(RowKey.of(ITEMS, KeyValues.of("[1,\"a\"]")))))
            .isTrue();
        assertThat(RowsPartitioner.isRowKey(RecordKeys.encode(RowKey.of(TableId.of("r", "m"), KeyValues.of("[1]")))))
            .isTrue();
        assertThat(RowsPartitioner.isRowKey(RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 1)))).isFalse();
        assertThat(RowsPartitioner.isRowKey(RecordKeys.encode(MarkerKey.of(MarkerKind.TABLE_READY, 0, ITEMS))))
            .isFalse();
    }

    @Test
    void markerGoesToThePartitionItsKeyNames() {
        byte[] barrier = RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 5));
        byte[] ready = RecordKeys.encode(MarkerKey.of(MarkerKind.TABLE_READY, 2, ITEMS));

        assertThat(partitioner.partitions("rows", barrier, new byte[0], 6)).contains(Set.of(5));
        assertThat(partitioner.partitions("rows", ready, new byte[0], 6)).contains(Set.of(2));
    }

    @Test
    void markerOfAPartitionTheTopicDoesNotHaveIsRefused() {
        byte[] barrier = RecordKeys.encode(MarkerKey.of(MarkerKind.BARRIER, 6));

        assertThatThrownBy(() -> partitioner.partitions("rows", barrier, new byte[0], 6))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("partition 6");
    }
}
