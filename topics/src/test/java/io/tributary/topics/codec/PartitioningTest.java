package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.BARRIER;
import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ROW;
import static io.tributary.topics.codec.Samples.SNAPSHOT;
import static io.tributary.topics.codec.Samples.TASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.PartitionRange;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class PartitioningTest {

    private static final int PARTITIONS = 12;

    @Test
    void partitionIsKafkasDefaultForTheKeyBytes() {
        for (int i = 0; i < 1000; i++) {
            byte[] key = RecordKeys.encode(RowKey.of(TableId.of("s" + i % 7, "t"), KeyValues.of("[" + i + "]")));
            assertThat(Partitioning.partitionFor(key, PARTITIONS))
                .isEqualTo(BuiltInPartitioner.partitionForKey(key, PARTITIONS));
        }
    }

    @Test
    void everyProducerOfARowPicksTheSamePartitionAndKeyBytes() {
        TableId table = TableId.of("tenant_9", "Orders");
        KeyValues pk = KeyValues.of("[\"9a1c\",3]");
        List<ProducerRecord<byte[], byte[]>> records = List.of(
            TopicCodec.CHANGES.recordByKey("c", PARTITIONS, ChangeEvent.insert(table, pk, ROW, LSN, 0, 1)),
            TopicCodec.SNAPSHOT_ROWS.recordByKey("s", PARTITIONS,
                new SnapshotRow(table, pk, ROW, "w#1", "w", 1, SNAPSHOT)),
            TopicCodec.ROWS.recordByKey("r", PARTITIONS, ResolvedRow.of(ChangeEvent.insert(table, pk, ROW, LSN, 0, 1))),
            TopicCodec.ROWS.recordByKey("r", PARTITIONS, ResolvedDelete.of(RowKey.of(table, pk))));
        byte[] key = RecordKeys.encode(RowKey.of(table, pk));
        for (ProducerRecord<byte[], byte[]> record : records) {
            assertThat(record.key()).isEqualTo(key);
            assertThat(record.partition()).isEqualTo(Partitioning.partitionFor(key, PARTITIONS));
        }
    }

    @Test
    void taskPartitionIsWithinItsPrioritysRange() {
        TopicLayout layout = TopicLayout.of(6, 3, (short) 1);
        for (TaskPriority priority : TaskPriority.values()) {
            PartitionRange range = layout.partitionsFor(priority);
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                ChunkTask task = ChunkTask.first("w#" + i, TASK.table(), ChunkRange.all(), priority, "w");
                int partition = Partitioning.taskPartition(task, layout);
                assertThat(range.contains(partition)).as(priority + " " + partition).isTrue();
                used.add(partition);
            }
            assertThat(used).as("tasks spread over the range").hasSize(range.size());
        }
    }

    @Test
    void markersGoToEveryPartitionUnderTheirOwnKeys() {
        List<ProducerRecord<byte[], byte[]>> records = TopicCodec.CHANGES.recordsToEveryPartition("c", 4, BARRIER);
        assertThat(records).extracting(ProducerRecord::partition).containsExactly(0, 1, 2, 3);
        assertThat(records.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)))
            .containsExactly("[1,\"m\",\"barrier\",0]", "[1,\"m\",\"barrier\",1]", "[1,\"m\",\"barrier\",2]",
                "[1,\"m\",\"barrier\",3]");
    }

    @Test
    void markersCannotBeRoutedByKey() {
        assertThatThrownBy(() -> TopicCodec.CHANGES.recordByKey("c", 4, BARRIER))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("recordsToEveryPartition");
    }

    @Test
    void rowKeyedMessagesAreNotBroadcast() {
        assertThatThrownBy(() -> TopicCodec.CHANGES.recordsToEveryPartition("c", 4, Samples.INSERT))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
