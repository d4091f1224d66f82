/**
 * Snapshot workers: a consumer group over {@code snapshot-tasks} that reads primary key range chunks of source
 * tables and publishes their rows to {@code snapshot-rows} (docs/design.md). The API is
 * {@link io.tributary.snapshot.SnapshotWorkers} with its {@link io.tributary.snapshot.SnapshotWorkerConfig}.
 *
 * <h2>Per chunk task</h2>
 * <ol>
 *   <li>Priority: a loop never starts a task while a higher-priority partition range of {@code snapshot-tasks} has
 *       lag for the group (its lower partitions stay paused, re-paused after every rebalance).</li>
 *   <li>Claim: {@code attempt = attempt + 1} in storage; a DONE chunk, or one of a closed window, is skipped.
 *       Attempts come from storage, so a redelivered task is always a new attempt.</li>
 *   <li>Read, in one {@code REPEATABLE READ READ ONLY} transaction holding one of the process's read permits:
 *       {@code pg_current_snapshot()} as S, the range {@code [lo, hi)} in key order streamed with a cursor,
 *       {@code pg_current_wal_insert_lsn()} as HW (at or after the commit of everything S sees, also of
 *       asynchronous commits whose commit record is not written yet). Each row goes to {@code snapshot-rows} in
 *       its key's partition, with chunk id, attempt and S; then, once Kafka acknowledged every row, the chunk-done
 *       marker (attempt, HW, row count) to every partition. If a row fails, the attempt gets no done marker and is
 *       retried as a new one.</li>
 *   <li>Complete, once Kafka acknowledged every record (acks=all, idempotent producer): the chunk is DONE in storage
 *       with its rows and HW, its table's progress advances, and the task's offset is committed. A crash before
 *       that redoes the chunk as a new attempt; a crash after the DONE and before the commit skips it.</li>
 * </ol>
 * While Kafka acknowledges one chunk the loop already reads the next (at most {@code pipelineDepth} per loop).
 * Transient failures re-run the chunk as a new attempt after a capped, jittered backoff within a deadline; a
 * permanent one (missing table, permission, unencodable value, oversized row) marks the table's window FAILED with
 * the reason and moves on to other tasks.
 */
package io.tributary.snapshot;
