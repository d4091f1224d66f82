package io.tributary.stream.topology;

import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.RecordKey;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Routes records written to {@code rows}: a row key to {@link Partitioning#partitionFor(byte[], int)} of its
 * bytes (the partition it was read from, the topics being co-partitioned), a marker (barrier, table-ready,
 * truncation) to the partition its {@link MarkerKey} names. Stateless, thread-safe.
 */
public final class RowsPartitioner implements StreamPartitioner<byte[], byte[]> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, byte[] key, byte[] value, int numPartitions) {
        RecordKey decoded = RecordKeys.decode(RecordPosition.inTopic(topic), key);
        int partition = decoded instanceof MarkerKey marker
            ? marker.partition() : Partitioning.partitionFor(key, numPartitions);
        if (partition >= numPartitions) {
            throw new IllegalStateException("A " + decoded + " record cannot go to partition " + partition + " of "
                + topic + ", which has " + numPartitions + " partitions");
        }
        return Optional.of(Set.of(partition));
    }
}
