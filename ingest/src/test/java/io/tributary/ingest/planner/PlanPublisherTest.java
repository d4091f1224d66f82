package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class PlanPublisherTest {

    private static final TopicLayout LAYOUT = TopicLayout.of(8, 8, (short) 1);
    private final MockProducer<byte[], byte[]> producer =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final PlanPublisher publisher = new PlanPublisher(producer, TopicNames.defaults(), LAYOUT);

    @Test
    void everyPartitionOfThePriorityGetsTheSameShareOfAWindowsTasks() {
        publisher.tasks(tasks("20260101T000000Z-a", 16, TaskPriority.ACTIVE_SNAPSHOT));

        assertThat(tasksPerPartition()).containsOnlyKeys(0, 1, 2, 3, 4, 5, 6, 7).allSatisfy((p, n) ->
            assertThat(n).isEqualTo(2));
    }

    @Test
    void theNextWindowContinuesWherePreviousTasksStopped() {
        publisher.tasks(tasks("20260101T000000Z-a", 5, TaskPriority.ACTIVE_SNAPSHOT));
        publisher.tasks(tasks("20260101T000000Z-b", 11, TaskPriority.ACTIVE_SNAPSHOT));

        assertThat(tasksPerPartition().values()).containsOnly(2);
    }

    @Test
    void tasksStayInTheirPrioritysRange() {
        publisher.tasks(tasks("20260101T000000Z-a", 10, TaskPriority.REPROCESS_SNAPSHOT));

        Map<Integer, Integer> counts = tasksPerPartition();
        assertThat(counts.keySet()).allSatisfy(p -> assertThat(p).isBetween(8, 15));
        assertThat(counts.values()).containsOnly(1, 2);
    }

    private Map<Integer, Integer> tasksPerPartition() {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (ProducerRecord<byte[], byte[]> record : producer.history()) {
            counts.merge(record.partition(), 1, Integer::sum);
        }
        return counts;
    }

    private static List<ChunkTask> tasks(String windowId, int count, TaskPriority priority) {
        List<ChunkTask> tasks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            tasks.add(ChunkTask.first(WindowIds.chunkId(windowId, i), TableId.of("public", "items"), ChunkRange.all(),
                priority, windowId));
        }
        return tasks;
    }
}
