package io.tributary.snapshot.publish;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.PgSnapshot;
import java.util.Objects;
import org.apache.kafka.clients.producer.Producer;

/**
 * Starts {@link ChunkPublication}s on {@code snapshot-rows} through one shared producer (idempotent, acks=all), whose
 * acknowledgements count only while its cluster is the one it started on ({@link ClusterIdentity}).
 * Thread-safe: worker loops share it.
 */
public final class ChunkPublisher {

    private final Producer<byte[], byte[]> producer;
    private final ClusterIdentity cluster;
    private final String topic;
    private final int partitions;

    /**
     * A publisher writing to the {@code snapshot-rows} topic of {@code names} through {@code producer}, whose key
     * serializer is {@code cluster}.
     */
    public ChunkPublisher(Producer<byte[], byte[]> producer, ClusterIdentity cluster, TopicNames names,
                          TopicLayout layout) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.topic = names.snapshotRows();
        this.partitions = layout.partitions();
    }

    /** A publication of the rows {@code task}'s attempt reads under {@code snapshot}. */
    public ChunkPublication begin(ChunkTask task, PgSnapshot snapshot) {
        return new ChunkPublication(producer, cluster, topic, partitions, task, snapshot);
    }
}
