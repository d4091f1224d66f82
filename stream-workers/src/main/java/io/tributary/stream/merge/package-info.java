/**
 * The merge rules as a pure, deterministic state machine: {@link io.tributary.stream.merge.MergeRules} over a
 * {@link io.tributary.stream.merge.MergeStore}, with no Kafka types. Given the same input order it produces the
 * same output; for every interleaving of one partition's {@code changes} and {@code snapshot-rows} the final
 * content of {@code rows} (last record per key) is the same: the source's.
 *
 * <h2>Why any interleaving converges</h2>
 * Per key, stream events are emitted in commit order, and a snapshot row read under snapshot {@code S} is emitted
 * only if every stream event of its key emitted so far is visible in {@code S} (the row is then at least as new
 * as all of them); events that arrive later are newer and are emitted after it. Checking only the last emitted
 * transaction per key is exact because, for one row, commit order is visibility order. The check needs state only
 * from the table's window marker on: every transaction that can be invisible to a chunk snapshot commits after
 * the marker. A snapshot row whose window marker has not arrived yet is emitted unchecked, which is safe for the
 * same reason (everything emitted so far precedes the marker). Chunk attempts, done markers and windows decide
 * which rows still count, and {@code table-ready} is emitted once the open window's plan and chunks are complete;
 * the table's per-key state is then released.
 *
 * <h2>Known limit of the contract</h2>
 * {@link io.tributary.topics.messages.SnapshotRow} does not carry its window id, so a row is known to belong to
 * a closed window only once a chunk-done marker of its chunk named that window. Rows of completed windows are
 * therefore always recognised, but rows of a chunk of a <em>superseded</em> window that never finished in this
 * partition, arriving after the table's next window is ready (a zombie snapshot worker outliving two windows),
 * would be emitted unchecked. Carrying the window id in snapshot rows (or fencing snapshot workers with
 * transactions) closes this gap.
 */
package io.tributary.stream.merge;
