package io.tributary.writer;

/**
 * Counters of one {@link StorageWriter} since it started (all threads), for logs and the launcher's metrics.
 *
 * @param recordsConsumed      records of {@code rows} committed (rows, deletes, markers, poison)
 * @param batchesCommitted     batch transactions committed
 * @param opsWritten           bucket ops written
 * @param deadLettered         poison records sent to the dead-letter topic
 * @param evaluationErrors     rows the rules selected but could not emit (e.g. a null id), logged and skipped
 * @param retries              retried storage operations
 * @param fencedBatches        batches rolled back because another writer had claimed their partition
 * @param checkpointsPublished checkpoints this writer's checkpointer published
 * @param commitNanos          time spent in batch transactions, retries included (divided by
 *                             {@code batchesCommitted}: the mean storage write latency)
 * @param peakHeldRecords      the most records one writer loop held at once, evaluated and not yet taken by a
 *                             transaction (bounded by about twice {@code storage.batch_rows} times the queued
 *                             batches of the writer's tuning)
 */
public record WriterStats(long recordsConsumed, long batchesCommitted, long opsWritten, long deadLettered,
                          long evaluationErrors, long retries, long fencedBatches, long checkpointsPublished,
                          long commitNanos, long peakHeldRecords) {
}
