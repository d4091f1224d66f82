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
 * <h2>What the state holds</h2>
 * Per partition: the {@code (LSN, seq)} high-water mark and the last barrier; per table, its windows (ids and
 * phases, kept so that late markers and rows of a closed window are recognised); per chunk of an open or pending
 * window, its highest attempt and whether it is done; per key of a table with an open window, the last stream
 * transaction. Chunk and key states are released when their window closes, so the state grows with what is in
 * flight, not with every snapshot ever run. Snapshot rows and done markers name their window, which is what lets
 * a late one be dropped after its chunk's state is gone.
 */
package io.tributary.stream.merge;
