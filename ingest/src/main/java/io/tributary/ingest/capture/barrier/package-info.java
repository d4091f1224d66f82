/**
 * Barriers of {@code changes}: {@link io.tributary.ingest.capture.barrier.BarrierSchedule} decides when the next
 * one is due and what it says, {@link io.tributary.ingest.capture.barrier.BarrierRecovery} reads the newest ones
 * back from the topic and {@link io.tributary.ingest.capture.barrier.StoredBarrier} from {@code ingest-offsets} when
 * ingest starts, so epochs keep increasing across restarts, takeovers and the retention of {@code changes}.
 */
package io.tributary.ingest.capture.barrier;
