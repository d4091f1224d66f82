package io.tributary.postgres;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-way shutdown flag that also ends waits at once: {@link #pause(Duration)} returns as soon as {@link #stop()}
 * is called. Thread-safe.
 */
public final class StopSignal implements Sleeper {

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
     * @return true if the full duration passed, false if shutdown was requested or the thread was interrupted (the
     *         interrupt flag is then set again)
     */
    @Override
    public boolean pause(Duration duration) {
        try {
            return !stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
