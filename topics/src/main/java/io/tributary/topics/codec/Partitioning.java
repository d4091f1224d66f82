package io.tributary.topics.codec;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.RowKey;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partition a record goes to.
 *
 * <p>Row-keyed records go to {@link #partitionFor(byte[], int)} of their encoded key, which is Kafka's default
 * for keyed records ({@code toPositive(murmur2(key)) % partitions}). Producers set that partition explicitly on
 * every row-keyed record (the {@code TopicCodec#recordByKey} helpers do): co-partitioning of {@code changes},
 * {@code snapshot-rows} and {@code rows} is a correctness property of the merge, so it must not depend on each
 * producer's {@code partitioner.class} setting or on a client's default changing. Markers go to explicit
 * partitions; chunk tasks to {@link #taskPartition(ChunkTask, TopicLayout)}. Thread-safe.
 */
public final class Partitioning {

    private Partitioning() {
    }

    /** The partition of a record with key bytes {@code key} among {@code partitions}. */
    public static int partitionFor(byte[] key, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** The partition of the records of row {@code key} among {@code partitions}. */
    public static int partitionFor(RowKey key, int partitions) {
        return partitionFor(RecordKeys.encode(key), partitions);
    }

    /** The partition of {@code snapshot-tasks} for {@code task}: by key hash within its priority's range. */
    public static int taskPartition(ChunkTask task, TopicLayout layout) {
        var range = layout.partitionsFor(task.priority());
        return range.first() + partitionFor(RecordKeys.encode(task.taskKey()), range.size());
    }
}
