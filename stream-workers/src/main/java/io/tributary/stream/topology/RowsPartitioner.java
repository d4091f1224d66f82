package io.tributary.stream.topology;

import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.RecordKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Routes records written to {@code rows}: a row key to {@link Partitioning#partitionFor(byte[], int)} of its
 * bytes (the partition it was read from, the topics being co-partitioned), a marker (barrier, table-ready,
 * truncation) to the partition its {@link MarkerKey} names. A row key is recognized by the first bytes of its
 * canonical encoding ({@link RecordKeys}: {@code [1,"r",}), which every key the merge writes has, so rows (nearly
 * every record) are routed without decoding their key. Stateless, thread-safe.
 */
public final class RowsPartitioner implements StreamPartitioner<byte[], byte[]> {

    /** How every encoded row key starts: {@code [<version>,"r",}. */
    private static final byte[] ROW_KEY_START = ("[" + RecordKeys.FORMAT_VERSION + ",\"r\",")
        .getBytes(StandardCharsets.UTF_8);

    @Override
    public Optional<Set<Integer>> partitions(String topic, byte[] key, byte[] value, int numPartitions) {
        if (isRowKey(key)) {
            return Optional.of(Set.of(Partitioning.partitionFor(key, numPartitions)));
        }
        RecordKey decoded = RecordKeys.decode(RecordPosition.inTopic(topic), key);
        int partition = decoded instanceof MarkerKey marker
            ? marker.partition() : Partitioning.partitionFor(key, numPartitions);
        if (partition >= numPartitions) {
            throw new IllegalStateException("A " + decoded + " record cannot go to partition " + partition + " of "
                + topic + ", which has " + numPartitions + " partitions");
        }
        return Optional.of(Set.of(partition));
    }

    /** Whether {@code key} starts like an encoded row key. */
    static boolean isRowKey(byte[] key) {
        return key != null && key.length > ROW_KEY_START.length
            && Arrays.equals(key, 0, ROW_KEY_START.length, ROW_KEY_START, 0, ROW_KEY_START.length);
    }
}
