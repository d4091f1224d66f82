package io.tributary.snapshot.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.TopicLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PriorityGateTest {

    private static final String TOPIC = "t.snapshot-tasks";
    private static final TopicLayout LAYOUT = TopicLayout.of(3, 2, (short) 1);
    private static final TopicPartition HIGH_0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition HIGH_1 = new TopicPartition(TOPIC, 1);
    private static final TopicPartition LOW_2 = new TopicPartition(TOPIC, 2);
    private static final TopicPartition LOW_3 = new TopicPartition(TOPIC, 3);

    private final AtomicLong now = new AtomicLong();
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final Map<TopicPartition, Long> lag = new HashMap<>();
    private final PriorityGate gate = new PriorityGate(LAYOUT, TOPIC,
        partitions -> partitions.stream().anyMatch(p -> lag.getOrDefault(p, 0L) > 0), Duration.ofMillis(100),
        now::get);

    PriorityGateTest() {
        consumer.assign(List.of(HIGH_1, LOW_2));
    }

    @Test
    void lowPrioritiesStartPausedOnAssignment() {
        gate.onAssigned(consumer, List.of(HIGH_1, LOW_2));

        assertThat(consumer.paused()).containsExactly(LOW_2);
    }

    @Test
    void lowPrioritiesStayPausedWhileAnyHighPartitionOfTheGroupHasLag() {
        gate.onAssigned(consumer, List.of(HIGH_1, LOW_2));
        lag.put(HIGH_0, 1L);
        now.addAndGet(Duration.ofSeconds(1).toNanos());

        gate.maybeResume(consumer);

        assertThat(consumer.paused()).containsExactly(LOW_2);
        assertThat(gate.mayStart(consumer, LOW_2)).isFalse();
    }

    @Test
    void lowPrioritiesResumeOnceEveryHighTaskIsCommitted() {
        gate.onAssigned(consumer, List.of(HIGH_1, LOW_2));
        lag.put(HIGH_0, 0L);
        now.addAndGet(Duration.ofSeconds(1).toNanos());

        gate.maybeResume(consumer);

        assertThat(consumer.paused()).isEmpty();
        assertThat(gate.mayStart(consumer, LOW_2)).isTrue();
    }

    @Test
    void highPriorityTasksAlwaysStart() {
        lag.put(HIGH_0, 1L);

        assertThat(gate.mayStart(consumer, HIGH_1)).isTrue();
    }
}
