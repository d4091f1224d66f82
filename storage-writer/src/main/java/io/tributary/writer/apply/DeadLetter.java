package io.tributary.writer.apply;

import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A poison record of {@code rows} that a batch consumes as a no-op, and why: the batch's committer sends it to the
 * dead-letter topic right before the transaction that stores the batch's offset.
 *
 * @param record the record as read
 * @param error  why it cannot be applied
 */
public record DeadLetter(ConsumerRecord<byte[], byte[]> record, Exception error) {

    public DeadLetter {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(error, "error");
    }
}
