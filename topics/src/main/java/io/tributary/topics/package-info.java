/**
 * The topics contract: what every Tributary stage writes to and reads from Kafka. This module depends on nothing
 * else of ours; the stages depend on it.
 *
 * <h2>Topics</h2>
 * Names are a deployment prefix plus a role suffix ({@link io.tributary.topics.TopicNames}); partition counts and
 * configs come from {@link io.tributary.topics.TopicLayout}; {@link io.tributary.topics.provision.TopicProvisioner}
 * creates or verifies them.
 * <table>
 *   <caption>Topics, keys and values</caption>
 *   <tr><th>topic</th><th>key</th><th>values</th><th>cleanup</th><th>written by, read by</th></tr>
 *   <tr><td>{@code changes}</td><td>row key; marker keys</td>
 *       <td>{@link io.tributary.topics.messages.ChangeEvent}; {@link io.tributary.topics.messages.Barrier},
 *       {@link io.tributary.topics.messages.TableWindowMarker}, {@link io.tributary.topics.messages.TableTruncate}
 *       to every partition</td><td>delete</td><td>ingest, stream workers</td></tr>
 *   <tr><td>{@code snapshot-tasks}</td><td>chunk id</td><td>{@link io.tributary.topics.messages.ChunkTask}, in the
 *       partition range of its priority</td><td>delete</td><td>planner, snapshot workers</td></tr>
 *   <tr><td>{@code snapshot-rows}</td><td>row key; marker keys</td>
 *       <td>{@link io.tributary.topics.messages.SnapshotRow}; {@link io.tributary.topics.messages.ChunkDone} and
 *       {@link io.tributary.topics.messages.TablePlan} to every partition</td><td>delete</td>
 *       <td>snapshot workers and planner, stream workers</td></tr>
 *   <tr><td>{@code rows}</td><td>row key; marker keys</td>
 *       <td>{@link io.tributary.topics.messages.ResolvedRow}, {@link io.tributary.topics.messages.ResolvedDelete}
 *       (a tombstone); {@link io.tributary.topics.messages.Barrier},
 *       {@link io.tributary.topics.messages.TableReady}, {@link io.tributary.topics.messages.TableTruncate} per
 *       partition</td><td>compact</td><td>stream workers, storage writer groups</td></tr>
 *   <tr><td>{@code dead-letters}</td><td>as the original</td><td>undecodable records, byte for byte, origin in
 *       headers ({@link io.tributary.topics.codec.DeadLetters})</td><td>delete</td><td>any consumer, people</td></tr>
 *   <tr><td>{@code ingest-offsets}</td><td colspan="2">Debezium's Kafka offset backing store (1 partition)</td>
 *       <td>compact</td><td>ingest</td></tr>
 * </table>
 *
 * <h2>Partitioning and ordering</h2>
 * <ul>
 *   <li>{@code changes}, {@code snapshot-rows} and {@code rows} are co-partitioned: same partition count (verified
 *       by the provisioner) and the same key bytes for the same row ({@link io.tributary.topics.codec.RecordKeys}),
 *       so partition {@code p} of each holds the same rows and one stream worker sees all events of a key.</li>
 *   <li>Row-keyed records are sent explicitly to {@link io.tributary.topics.codec.Partitioning#partitionFor(byte[],
 *       int)} of their key (Kafka's default hash, but never left to a producer's partitioner configuration).</li>
 *   <li>Markers go to explicit partitions, keyed by {@link io.tributary.topics.messages.MarkerKey} (kind and
 *       partition, plus table or chunk), so they never collide with rows and compaction of {@code rows} keeps the
 *       newest marker of each kind per partition (per table for table-ready and truncate).</li>
 *   <li>Kafka orders records within a partition only. Per key, {@code changes} is in source commit order
 *       ({@code (commit LSN, seq)}); a marker written to every partition sits, in each, after every record its
 *       producer wrote there before it. {@code rows} is in source order per key.</li>
 * </ul>
 *
 * <h2>Formats and versioning</h2>
 * Keys are compact UTF-8 JSON arrays starting with their format version; values are compact UTF-8 JSON objects
 * starting with {@code "v"} (the envelope version) and {@code "type"}
 * ({@link io.tributary.topics.codec.TopicCodec}). Rows and primary keys are carried as the source module's
 * canonical JSON text, verbatim: a row's bytes are identical after any number of hops. Only version 1 is written
 * and read; a record of any other version, or malformed in any way, raises a
 * {@link io.tributary.topics.codec.MessageFormatException} naming topic, partition and offset. Within a version,
 * decoders skip unknown fields, so a field may be added without a version bump if old readers may ignore it;
 * anything else (removing, renaming or re-typing a field, changing a meaning) needs a new version that decoders
 * learn before producers write it. In-memory records always have the current shape; the version lives on the
 * wire.
 */
package io.tributary.topics;
