package io.tributary.ingest.capture.internals;

import io.tributary.ingest.capture.IngestStats;
import io.tributary.topics.messages.Barrier;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Counters of what capture wrote, updated by the batch handler and read from any thread. Thread-safe. */
public final class CaptureCounters {

    private final AtomicLong changeEvents = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong markers = new AtomicLong();
    private final AtomicLong barriers = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicReference<Barrier> lastBarrier = new AtomicReference<>();

    void acknowledged(long events, long txns, long markerCount) {
        changeEvents.addAndGet(events);
        transactions.addAndGet(txns);
        markers.addAndGet(markerCount);
    }

    void barrier(Barrier barrier) {
        barriers.incrementAndGet();
        lastBarrier.set(barrier);
    }

    void batch() {
        batches.incrementAndGet();
    }

    /** Batches handled so far (a batch shows the engine streams from the slot). */
    public long batches() {
        return batches.get();
    }

    /** A snapshot of the counters. */
    public IngestStats snapshot() {
        return new IngestStats(changeEvents.get(), transactions.get(), markers.get(), barriers.get(),
            Optional.ofNullable(lastBarrier.get()));
    }
}
