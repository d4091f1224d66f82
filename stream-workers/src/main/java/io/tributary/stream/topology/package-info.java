/**
 * The Kafka Streams wiring of the merge: {@link io.tributary.stream.topology.MergeTopology} (sources, the merge
 * processor, state stores, sinks) and {@link io.tributary.stream.topology.RowsPartitioner} (row keys by hash,
 * markers to the partition their key names).
 */
package io.tributary.stream.topology;
