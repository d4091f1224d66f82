package io.tributary.ingest.capture.internals;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Capped exponential backoff with full jitter: the n-th wait is uniform in {@code [base/2, base]} with
 * {@code base = min(max, initial * 2^n)}. {@link #reset()} after a success. Not thread-safe.
 */
public final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private int attempt;

    public Backoff(Duration initial, Duration max) {
        this.initialMillis = Math.max(1, initial.toMillis());
        this.maxMillis = Math.max(initialMillis, max.toMillis());
    }

    /** The next wait. */
    public Duration next() {
        long base = initialMillis << Math.min(attempt, 20);
        base = Math.min(maxMillis, base);
        attempt++;
        return Duration.ofMillis(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
    }

    /** Starts over from the initial wait. */
    public void reset() {
        attempt = 0;
    }
}
