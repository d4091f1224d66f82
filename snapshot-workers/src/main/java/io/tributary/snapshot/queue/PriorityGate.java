package io.tributary.snapshot.queue;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Keeps a worker from starting lower-priority tasks while higher-priority tasks wait for the consumer group.
 *
 * <p>Kafka has no priority queue: each {@link TaskPriority} owns a partition range of {@code snapshot-tasks}. A
 * priority has <em>lag</em> when, in any partition of its range, the group's committed offset is below the end
 * offset: a task is queued or being processed somewhere in the group. The gate pauses this consumer's partitions of
 * every priority while a higher priority has lag (they start paused on every assignment), resumes them once no
 * higher priority has lag (checked at most every {@code recheck}), and {@link #mayStart} re-checks before each
 * lower-priority task starts, so priority is rechecked between chunks. Lag comes from {@link TaskLag}.
 *
 * <p>Not thread-safe: used by its loop's thread only.
 */
final class PriorityGate {

    private final TopicLayout layout;
    private final String topic;
    private final TaskLag lag;
    private final Duration recheck;
    private final LongSupplier nanoTime;
    private final Set<TopicPartition> paused = new HashSet<>();
    private long lastCheck;

    PriorityGate(TopicLayout layout, String topic, TaskLag lag, Duration recheck, LongSupplier nanoTime) {
        this.layout = layout;
        this.topic = topic;
        this.lag = lag;
        this.recheck = recheck;
        this.nanoTime = nanoTime;
        this.lastCheck = nanoTime.getAsLong() - recheck.toNanos();
    }

    /** Pauses the newly assigned partitions of every priority below the highest (re-applied after rebalances). */
    void onAssigned(Consumer<byte[], byte[]> consumer, Collection<TopicPartition> assigned) {
        List<TopicPartition> low = new ArrayList<>();
        for (TopicPartition partition : assigned) {
            if (layout.priorityOf(partition.partition()).ordinal() > 0) {
                low.add(partition);
            }
        }
        consumer.pause(low);
        paused.addAll(low);
        lastCheck = nanoTime.getAsLong() - recheck.toNanos();
    }

    /** Forgets revoked or lost partitions. */
    void onRevoked(Collection<TopicPartition> revoked) {
        paused.removeAll(revoked);
    }

    /** Resumes paused partitions whose higher priorities have no lag, at most every {@code recheck}. */
    void maybeResume(Consumer<byte[], byte[]> consumer) {
        if (paused.isEmpty() || nanoTime.getAsLong() - lastCheck < recheck.toNanos()) {
            return;
        }
        lastCheck = nanoTime.getAsLong();
        List<TopicPartition> resume = new ArrayList<>();
        for (TopicPartition partition : paused) {
            if (!higherPrioritiesHaveLag(layout.priorityOf(partition.partition()))) {
                resume.add(partition);
            }
        }
        consumer.resume(resume);
        resume.forEach(paused::remove);
    }

    /** Whether every task from {@code partition} may start at once: it holds the highest priority's tasks. */
    boolean alwaysStarts(TopicPartition partition) {
        return layout.priorityOf(partition.partition()).ordinal() == 0;
    }

    /**
     * Whether a task from {@code partition} may start now. If not, the caller must seek back to the task's offset;
     * the partition is paused until higher priorities have no lag.
     */
    boolean mayStart(Consumer<byte[], byte[]> consumer, TopicPartition partition) {
        TaskPriority priority = layout.priorityOf(partition.partition());
        if (priority.ordinal() == 0 || !higherPrioritiesHaveLag(priority)) {
            return true;
        }
        consumer.pause(List.of(partition));
        paused.add(partition);
        lastCheck = nanoTime.getAsLong();
        return false;
    }

    private boolean higherPrioritiesHaveLag(TaskPriority priority) {
        Set<TopicPartition> higher = new HashSet<>();
        for (TaskPriority other : TaskPriority.values()) {
            if (other.ordinal() < priority.ordinal()) {
                for (int p : layout.partitionsFor(other).partitions()) {
                    higher.add(new TopicPartition(topic, p));
                }
            }
        }
        return !higher.isEmpty() && lag.hasLag(higher);
    }
}
