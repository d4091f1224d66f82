package io.tributary.snapshot.queue;

import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.topics.messages.ChunkTask;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * A task whose offset is not committed yet: either its chunk was read and is being acknowledged by Kafka, or it
 * needs nothing but the commit (skipped, or its table failed). Offsets are committed in the order tasks were
 * polled.
 *
 * @param record      the task's record
 * @param task        the task (with the attempt claimed, if any)
 * @param publication the chunk's publication, if it was read
 */
record InFlight(ConsumerRecord<byte[], byte[]> record, ChunkTask task, Optional<ChunkPublication> publication) {

    InFlight {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(publication, "publication");
    }

    /** A task whose chunk was read and is being published. */
    static InFlight publishing(ConsumerRecord<byte[], byte[]> record, ChunkPublication publication) {
        return new InFlight(record, publication.task(), Optional.of(publication));
    }

    /** A task that only needs its offset committed. */
    static InFlight commitOnly(ConsumerRecord<byte[], byte[]> record, ChunkTask task) {
        return new InFlight(record, task, Optional.empty());
    }

    /** Whether nothing is left to wait for; sends the chunk's done markers once its rows are acknowledged. */
    boolean isSettled() {
        return publication.map(ChunkPublication::settle).orElse(true);
    }

    /** The task's partition. */
    TopicPartition partition() {
        return new TopicPartition(record.topic(), record.partition());
    }
}
