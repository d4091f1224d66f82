package io.tributary.writer.internals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-way shutdown flag that waits can observe at once: {@link #pause(Duration)} returns as soon as
 * {@link #stop()} is called. Thread-safe.
 */
public final class StopSignal {

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Requests shutdown; idempotent. */
    public void stop() {
        stopped.countDown();
    }

    /** Whether shutdown was requested. */
    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /**
     * Waits {@code duration} unless shutdown is requested first.
     *
     * @return true if the full duration passed, false if shutdown was requested
     * @throws InterruptedException if the thread is interrupted (the flag is cleared, as usual)
     */
    public boolean pause(Duration duration) throws InterruptedException {
        return !stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS);
    }
}
