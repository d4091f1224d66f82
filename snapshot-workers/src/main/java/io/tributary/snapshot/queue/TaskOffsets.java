package io.tributary.snapshot.queue;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task offsets one work loop has to commit: queued as its chunks finish (the offset after each task, the highest
 * per partition), committed together at most every interval, for the partitions the loop still owns. Not
 * thread-safe: the loop's thread (and its rebalance listener, on that thread) uses it.
 */
final class TaskOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(TaskOffsets.class);

    private final long intervalNanos;
    private final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();
    private long lastCommit = System.nanoTime();

    /** Offsets committed every {@code interval} (when the loop asks {@link #isDue()}). */
    TaskOffsets(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /** Queues the offset after {@code record} for the next {@link #commit}. */
    void queue(ConsumerRecord<byte[], byte[]> record) {
        uncommitted.merge(new TopicPartition(record.topic(), record.partition()),
            new OffsetAndMetadata(record.offset() + 1), (a, b) -> a.offset() >= b.offset() ? a : b);
    }

    /** Whether the interval since the last commit has passed. */
    boolean isDue() {
        return System.nanoTime() - lastCommit >= intervalNanos;
    }

    /** Forgets the queued offsets of {@code partitions} (lost: another member owns them now). */
    void forget(Collection<TopicPartition> partitions) {
        uncommitted.keySet().removeAll(partitions);
    }

    /** Commits the queued offsets of the partitions {@code consumer} still owns, in one request. */
    void commit(Consumer<byte[], byte[]> consumer) {
        lastCommit = System.nanoTime();
        if (uncommitted.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(uncommitted);
        uncommitted.clear();
        offsets.keySet().retainAll(consumer.assignment());
        if (offsets.isEmpty()) {
            LOG.debug("Not committing offsets: their partitions were reassigned");
            return;
        }
        try {
            consumer.commitSync(offsets);
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.info("Offsets {} not committed ({}); a new owner skips the chunks that are done", offsets,
                e.toString());
        }
    }
}
