package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class PlanPublisherTest {

    private static final String OLD_EPOCH = "Producer attempted to produce with an old epoch.";
    private static final TopicLayout LAYOUT = TopicLayout.of(8, 8, (short) 1);
    private final MockProducer<byte[], byte[]> producer =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final PlanPublisher publisher = new PlanPublisher(cluster -> producer, TopicNames.defaults(),
        LAYOUT);

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

    /** A new cluster hands out the producer ids the producers of running processes hold, at a higher epoch. */
    @Test
    void aPublicationKafkaRefusesForTheProducersEpochIsSentAgainThroughANewProducer() {
        MockProducer<byte[], byte[]> refused = refusing();
        MockProducer<byte[], byte[]> fresh = manual();
        PlanPublisher twice = publisher(refused, fresh);
        twice.tasks(tasks("20260101T000000Z-a", 4, TaskPriority.ACTIVE_SNAPSHOT));

        twice.flush();

        assertThat(refused.closed()).isTrue();
        assertThat(fresh.history()).hasSize(4).extracting(ProducerRecord::partition).containsExactly(0, 1, 2, 3);
    }

    /** A producer that lived through its cluster's replacement: its acknowledgements may hide dropped batches. */
    @Test
    void aPublicationWhoseProducerSawAnotherClusterIsSentAgainThroughANewProducer() {
        MockProducer<byte[], byte[]> old = manual();
        MockProducer<byte[], byte[]> fresh = manual();
        Iterator<MockProducer<byte[], byte[]>> next = List.of(old, fresh).iterator();
        List<ClusterIdentity> clusters = new ArrayList<>();
        PlanPublisher publisher = new PlanPublisher(cluster -> {
            clusters.add(cluster);
            return next.next();
        }, TopicNames.defaults(), LAYOUT);
        clusters.get(0).onUpdate(new ClusterResource("old-cluster"));
        publisher.tasks(tasks("20260101T000000Z-a", 3, TaskPriority.ACTIVE_SNAPSHOT));
        clusters.get(0).onUpdate(new ClusterResource("new-cluster"));
        old.completeNext();
        old.completeNext();
        old.completeNext();

        publisher.flush();

        assertThat(old.closed()).isTrue();
        assertThat(fresh.history()).hasSize(3);
    }

    @Test
    void producersRefusedInTurnFailThePublicationNamingTheCauseAndTheFix() {
        PlanPublisher refused = publisher(refusing(), refusing(), refusing(), refusing());
        refused.tasks(tasks("20260101T000000Z-a", 2, TaskPriority.ACTIVE_SNAPSHOT));

        assertThatThrownBy(refused::flush).isInstanceOf(PlanningException.class)
            .hasMessageContaining("refused " + (PlanPublisher.REPLACEMENTS + 1) + " producers")
            .hasMessageContaining("old epoch")
            .hasMessageContaining("restart the processes");
    }

    @Test
    void aPublicationThatTimesOutIsNotSentAgain() {
        MockProducer<byte[], byte[]> timingOut = manual();
        PlanPublisher once = publisher(timingOut);
        once.tasks(tasks("20260101T000000Z-a", 2, TaskPriority.ACTIVE_SNAPSHOT));
        timingOut.errorNext(new TimeoutException("Expiring 1 record(s)"));

        assertThatThrownBy(once::flush).isInstanceOf(PlanningException.class).hasMessageContaining("Expiring");
        assertThat(timingOut.closed()).isFalse();
    }

    /** A producer whose every send Kafka refuses at {@code flush} for its epoch. */
    private static MockProducer<byte[], byte[]> refusing() {
        return new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer()) {
            @Override
            public synchronized void flush() {
                while (errorNext(new InvalidProducerEpochException(OLD_EPOCH))) {
                    continue;
                }
            }
        };
    }

    /** A producer whose sends complete at its {@code flush} or {@code errorNext}. */
    private static MockProducer<byte[], byte[]> manual() {
        return new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @SafeVarargs
    private static PlanPublisher publisher(MockProducer<byte[], byte[]>... producers) {
        Iterator<Producer<byte[], byte[]>> next = List.<Producer<byte[], byte[]>>of(producers).iterator();
        return new PlanPublisher(cluster -> next.next(), TopicNames.defaults(), LAYOUT);
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
