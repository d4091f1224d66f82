package io.tributary.writer;

import io.tributary.postgres.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * Knobs with sensible defaults ({@link #defaults()}); the launcher only overrides them for tests.
 *
 * @param pollTimeout            longest wait of one Kafka poll
 * @param queuedBatches          the pipeline depth, {@code >= 1}: a writer loop evaluates records while it holds
 *                               fewer than {@code queuedBatches * batchRecords} evaluated records not yet taken by a
 *                               transaction (or the partition fewer than its share of them); beyond that the
 *                               partition is paused
 * @param gateRecheck            how often a writer whose batch waits for other partitions' seals re-reads them
 * @param checkpointInterval     how often the checkpointer tries to advance the group's checkpoint
 * @param retryInitialBackoff    first wait after a retriable storage failure
 * @param retryMaxBackoff        longest wait between retries
 * @param retryDeadline          how long one operation may keep failing before the writer fails
 * @param closeTimeout           how long {@code close()} waits for in-flight commits before abandoning them
 */
public record WriterTuning(Duration pollTimeout, int queuedBatches, Duration gateRecheck, Duration checkpointInterval,
                           Duration retryInitialBackoff, Duration retryMaxBackoff, Duration retryDeadline,
                           Duration closeTimeout) {

    public WriterTuning {
        for (Duration d : new Duration[] {pollTimeout, gateRecheck, checkpointInterval, retryInitialBackoff,
            retryMaxBackoff, retryDeadline, closeTimeout}) {
            Objects.requireNonNull(d, "duration");
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("Writer durations must be positive, got " + d);
            }
        }
        if (queuedBatches < 1) {
            throw new IllegalArgumentException("queuedBatches must be >= 1, got " + queuedBatches);
        }
    }

    /** Poll 100 ms, 2 queued batches, gate re-read every 20 ms, checkpoint every 200 ms, retries 0.1-5 s for 5 min. */
    public static WriterTuning defaults() {
        return new WriterTuning(Duration.ofMillis(100), 2, Duration.ofMillis(20), Duration.ofMillis(200),
            Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofSeconds(30));
    }

    /** The retry policy of storage operations: {@link #retryInitialBackoff()} up to {@link #retryMaxBackoff()}. */
    public RetryPolicy retryPolicy() {
        return RetryPolicy.of(retryInitialBackoff, retryMaxBackoff, retryDeadline);
    }

    /** These settings with {@code deadline} as retry deadline. */
    public WriterTuning withRetryDeadline(Duration deadline) {
        return new WriterTuning(pollTimeout, queuedBatches, gateRecheck, checkpointInterval, retryInitialBackoff,
            retryMaxBackoff, deadline, closeTimeout);
    }

    /** These settings with {@code interval} as checkpoint interval. */
    public WriterTuning withCheckpointInterval(Duration interval) {
        return new WriterTuning(pollTimeout, queuedBatches, gateRecheck, interval, retryInitialBackoff,
            retryMaxBackoff, retryDeadline, closeTimeout);
    }
}
