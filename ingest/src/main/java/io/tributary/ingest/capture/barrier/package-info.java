/**
 * Barriers of {@code changes}: {@link io.tributary.ingest.capture.barrier.BarrierSchedule} decides when the next
 * one is due and what it says, {@link io.tributary.ingest.capture.barrier.BarrierRecovery} reads the newest ones
 * back from the topic when ingest starts, so epochs keep increasing across restarts and takeovers.
 */
package io.tributary.ingest.capture.barrier;
