/**
 * The stream workers: merge {@code changes} and {@code snapshot-rows} into {@code rows}, the ordered, compacted
 * log of every source table (docs/design.md, "Merge").
 *
 * <p>API for the launcher: {@link io.tributary.stream.StreamWorker#start(StreamWorkerConfig)} and
 * {@link io.tributary.stream.StreamWorker#close()}, configured by a {@link io.tributary.stream.StreamWorkerConfig}
 * the launcher has already parsed.
 *
 * <h2>Exactly-once</h2>
 * The merge is a Kafka Streams Processor API application with {@code processing.guarantee=exactly_once_v2}. The
 * two inputs are co-partitioned, so Kafka Streams creates one task per partition number {@code p}, owning
 * partition {@code p} of {@code changes} and of {@code snapshot-rows}; the task writes partition {@code p} of
 * {@code rows}. Its outputs, its state store changelogs and its consumed offsets commit in one Kafka transaction,
 * so a crash at any point replays the uncommitted inputs against the state as of the last commit and nothing is
 * lost or written twice to {@code rows} (readers use {@code read_committed}). A zombie instance is fenced by the
 * group generation when it tries to commit. The application id, hence the consumer group, is
 * {@code <topic prefix>stream-workers}.
 *
 * <h2>State: bounded and recoverable</h2>
 * Per partition the merge keeps (see {@link io.tributary.stream.merge}): the stream high-water mark, per table its
 * windows, per chunk its highest attempt and done flag, and, only while a table's snapshot window is open, the
 * last stream transaction id per key of that table. These live in two persistent key-value stores (RocksDB, on
 * disk under the state directory), each backed by a compacted changelog topic. Memory is bounded by Kafka
 * Streams' record cache and RocksDB's block cache and memtables, not by the number of keys: a 10M-row table
 * under heavy updates costs disk, not heap: one entry per key updated during the window (key: table name, 8-byte
 * generation and primary key JSON; value: 9 bytes), plus its changelog record. After a crash or a rebalance, Kafka
 * Streams restores a task's stores from the local checkpoint or its changelog before processing. When a window is
 * ready, the table's keys are released; they are deleted in bounded steps (a few per record plus a batch per
 * second) so a huge table never needs one giant transaction.
 */
package io.tributary.stream;
