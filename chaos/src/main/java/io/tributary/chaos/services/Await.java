package io.tributary.chaos.services;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Polls a condition with a capped, growing pause until it holds or a deadline passes. */
final class Await {

    private static final long FIRST_PAUSE_MS = 50;
    private static final long MAX_PAUSE_MS = 500;

    private Await() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @param giveUp checked before every poll; when it holds the wait fails at once (e.g. the process died)
     * @throws ServiceException if {@code timeout} passes first, {@code giveUp} holds, or the thread is interrupted
     */
    static void until(String what, Duration timeout, BooleanSupplier condition, BooleanSupplier giveUp) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = FIRST_PAUSE_MS;
        while (!condition.getAsBoolean()) {
            if (giveUp.getAsBoolean()) {
                throw new ServiceException(what + ": gave up");
            }
            if (System.nanoTime() > deadline) {
                throw new ServiceException(what + ": not done within " + timeout);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServiceException(what + ": interrupted", e);
            }
            pause = Math.min(MAX_PAUSE_MS, pause * 2);
        }
    }
}
