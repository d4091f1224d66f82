package io.tributary.writer.internals;

import io.tributary.writer.WriterStats;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/** The live counters behind {@link WriterStats}. Thread-safe. */
public final class WriterCounters {

    private final LongAdder recordsConsumed = new LongAdder();
    private final LongAdder batchesCommitted = new LongAdder();
    private final LongAdder opsWritten = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder evaluationErrors = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder fencedBatches = new LongAdder();
    private final LongAdder checkpointsPublished = new LongAdder();
    private final LongAdder commitNanos = new LongAdder();
    private final AtomicLong peakHeldRecords = new AtomicLong();
    private volatile LongConsumer commitListener = nanos -> { };

    /**
     * A batch of {@code records} records with {@code ops} ops committed, its transaction (retries included)
     * having taken {@code nanos}.
     */
    public void committed(int records, int ops, long nanos) {
        recordsConsumed.add(records);
        batchesCommitted.increment();
        opsWritten.add(ops);
        commitNanos.add(nanos);
        commitListener.accept(nanos);
    }

    /**
     * Hears the duration in nanoseconds of every batch transaction committed from now on, on the committing
     * thread (it must be quick and must not throw); replaces the previous listener.
     */
    public void onCommitted(LongConsumer listener) {
        commitListener = Objects.requireNonNull(listener, "listener");
    }

    /** A poison record was dead-lettered. */
    public void deadLettered() {
        deadLettered.increment();
    }

    /** A row produced {@code count} evaluation errors. */
    public void evaluationErrors(int count) {
        evaluationErrors.add(count);
    }

    /** A storage operation is retried. */
    public void retried() {
        retries.increment();
    }

    /** A batch was fenced off. */
    public void fenced() {
        fencedBatches.increment();
    }

    /** A writer loop holds {@code records} records evaluated and not yet taken by a transaction. */
    public void held(int records) {
        if (records > peakHeldRecords.get()) {
            peakHeldRecords.accumulateAndGet(records, Math::max);
        }
    }

    /** A checkpoint was published. */
    public void checkpointPublished() {
        checkpointsPublished.increment();
    }

    /** The current values. */
    public WriterStats snapshot() {
        return new WriterStats(recordsConsumed.sum(), batchesCommitted.sum(), opsWritten.sum(), deadLettered.sum(),
            evaluationErrors.sum(), retries.sum(), fencedBatches.sum(), checkpointsPublished.sum(), commitNanos.sum(),
            peakHeldRecords.get());
    }
}
