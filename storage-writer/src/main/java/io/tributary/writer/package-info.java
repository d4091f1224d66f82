/**
 * The storage writer: one Kafka consumer group per sync rules group over the compacted table log {@code rows},
 * evaluating the group's sync rules and writing bucket ops and consistent checkpoints to storage
 * (docs/design.md). The launcher starts it with {@link io.tributary.writer.StorageWriter#start} and a
 * {@link io.tributary.writer.WriterConfig}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Exactly-once effect.</b> Offsets live in storage ({@code partition_offsets}), written in the same
 *       transaction as the ops of a batch; on assignment a writer bumps the partition's fencing token and seeks to
 *       the stored offset, and every batch transaction checks its token first, so a zombie cannot commit and
 *       redelivered records are skipped ({@code apply.BatchApplier}, {@code consume.PartitionClaims}).</li>
 *   <li><b>Ops.</b> Per source row: PUT for every bucket it is in after a change (changed data or not), REMOVE for
 *       every bucket it left or when it is deleted or truncated; several records of a key in one batch reduce to
 *       the last, so a row's ops follow source order ({@code apply.OpPlanner}).</li>
 *   <li><b>Consistent checkpoints.</b> Aligned barriers and per-table LSN gating, published only forward in short
 *       transactions of their own with {@code NOTIFY tributary_checkpoint}; the argument is in
 *       {@code checkpoint.CheckpointMath}.</li>
 *   <li><b>No shared row in the hot transaction.</b> A batch transaction touches only its partition's rows and
 *       appends to {@code bucket_data}; checkpoints, the only shared row, are written elsewhere.</li>
 *   <li><b>Failures.</b> Retriable storage failures (SQLSTATE 08xxx, 40001, 40P01, 53xxx, 55P03, 57P0x,
 *       connection loss) are retried with capped exponential backoff, jitter and a deadline, and abandoned at once
 *       on shutdown; anything else stops the writer (decided by {@code io.tributary.postgres.SqlErrors}). A poison
 *       record is consumed as a no-op and goes to the dead-letter topic, sent by the committer right before the
 *       transaction that stores its offset: a batch a rebalance drops has sent nothing, and only a crash or a fencing
 *       between that send and the commit repeats a letter (at least once; letters carry their origin).</li>
 *   <li><b>Pipelining.</b> Per writer loop, a poll thread decodes, evaluates and reduces the next batches while a
 *       committer thread commits the previous ones, in order per partition; a bounded queue and
 *       {@code pause()} turn slow storage into backpressure.</li>
 * </ul>
 *
 * <h2>Choices</h2>
 * One transaction per committer round, not per partition batch or epoch: it takes every queued batch the
 * aligned-barrier gate allows, of all the loop's partitions, up to {@code batchRecords} records per partition, and
 * applies them in rounds of one batch per partition, so its partitions advance through the epochs together and
 * one transaction seals several epochs in each (exactly the seals, op ids and offsets of committing the batches one
 * by one). A batch still never spans a barrier, and the statements are shared by all batches of the transaction, so
 * a backlog (e.g. behind slow storage) costs a few round trips per transaction, not per partition and epoch. A
 * gated partition stays out of the transaction; a fenced one rolls it back, and the others' batches are retried
 * without it.
 *
 * <p>Known limits: two source rows mapping to the same {@code (bucket, table, id)} (e.g. equal ids in two tenant
 * schemas of one global bucket) interleave their ops; table names whose schema contains a dot cannot be matched
 * by the sync rules' {@code schema.table} form.
 */
package io.tributary.writer;
