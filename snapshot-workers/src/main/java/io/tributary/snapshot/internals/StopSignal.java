package io.tributary.snapshot.internals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A one-way shutdown flag that also ends backoff waits at once. Thread-safe. */
public final class StopSignal {

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Asks everything waiting on this signal to stop. */
    public void stop() {
        stopped.countDown();
    }

    /** Whether {@link #stop()} was called. */
    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /**
     * Waits {@code duration} unless stopped first.
     *
     * @return true if the full duration passed, false if stopped (or interrupted: the flag is restored)
     */
    public boolean pause(Duration duration) {
        try {
            return !stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
