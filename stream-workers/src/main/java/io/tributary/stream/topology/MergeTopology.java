package io.tributary.stream.topology;

import io.tributary.topics.TopicNames;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology of the stream workers: one sub-topology reading {@code changes} and
 * {@code snapshot-rows} into the {@code merge} processor, which writes {@code rows} (through
 * {@link RowsPartitioner}) and {@code dead-letters}. Both inputs are co-partitioned, so Kafka Streams makes one
 * task per partition number, owning partition {@code p} of both inputs and the task's two state stores, both
 * changelogged and cached: {@value #STATE_STORE} in memory (small: the partition's state, its tables' windows and
 * the chunks of windows still open; rebuilt from its changelog at every start) and {@value #KEYS_STORE} in RocksDB
 * (one entry per changed key of a table being snapshotted, which can outgrow the heap).
 */
public final class MergeTopology {

    /** Source of {@code changes}. */
    public static final String CHANGES_SOURCE = "changes-source";
    /** Source of {@code snapshot-rows}. */
    public static final String SNAPSHOT_ROWS_SOURCE = "snapshot-rows-source";
    /** The merge processor. */
    public static final String MERGE = "merge";
    /** Sink to {@code rows}. */
    public static final String ROWS_SINK = "rows-sink";
    /** Sink to {@code dead-letters}. */
    public static final String DEAD_LETTERS_SINK = "dead-letters-sink";
    /** Partition, table and chunk states (in memory: bounded by tables and chunks in flight). */
    public static final String STATE_STORE = "merge-state";
    /** Last stream transaction per tracked key. */
    public static final String KEYS_STORE = "merge-keys";

    private MergeTopology() {
    }

    /**
     * The topology over the topics {@code names}, which have {@code partitions} partitions each.
     *
     * @throws IllegalArgumentException if {@code partitions < 1}
     */
    public static Topology build(TopicNames names, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        PromptCommits.PerThread promptCommits = new PromptCommits.PerThread();
        Topology topology = new Topology();
        topology.addSource(AutoOffsetReset.earliest(), CHANGES_SOURCE, new ByteArrayDeserializer(),
            new ByteArrayDeserializer(), names.changes());
        topology.addSource(AutoOffsetReset.earliest(), SNAPSHOT_ROWS_SOURCE, new ByteArrayDeserializer(),
            new ByteArrayDeserializer(), names.snapshotRows());
        topology.addProcessor(MERGE, () -> new MergeProcessor(names, partitions, promptCommits), CHANGES_SOURCE,
            SNAPSHOT_ROWS_SOURCE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STATE_STORE),
            Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), MERGE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(KEYS_STORE),
            Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), MERGE);
        topology.addSink(ROWS_SINK, names.rows(), new ByteArraySerializer(), new ByteArraySerializer(),
            new RowsPartitioner(), MERGE);
        topology.addSink(DEAD_LETTERS_SINK, names.deadLetters(), new ByteArraySerializer(),
            new ByteArraySerializer(), MERGE);
        return topology;
    }
}
