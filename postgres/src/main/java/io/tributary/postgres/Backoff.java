package io.tributary.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Paces the retries of one operation by a {@link RetryPolicy}: counts the failed tries since the last success,
 * computes the next wait (capped exponential with jitter) and ends the retries once failures have lasted past the
 * policy's deadline. The clock (a monotonic {@code nanoTime}, as {@link System#nanoTime()}) and the jitter source
 * are injected, so tests control time without sleeping. Waiting itself is the caller's (see {@link Sleeper}, or
 * {@link Retrier} for a whole retry loop).
 *
 * <p>Not thread-safe: one per operation in progress.
 */
public final class Backoff {

    private final RetryPolicy policy;
    private final LongSupplier nanoTime;
    private final DoubleSupplier jitter;
    private long firstFailure;
    private int failures;

    /** A backoff by {@code policy}, timed by {@code nanoTime}, with jitter drawn from {@code jitter} in [0, 1). */
    public Backoff(RetryPolicy policy, LongSupplier nanoTime, DoubleSupplier jitter) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /** A backoff by {@code policy} on the system's clock and random jitter. */
    public static Backoff of(RetryPolicy policy) {
        return new Backoff(policy, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * Records that {@code what} failed with {@code failure} and returns how long to wait before the next try.
     *
     * @throws RetriesExhaustedException if failures have lasted past the deadline (its cause is {@code failure})
     */
    public Duration failed(String what, Throwable failure) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(failure, "failure");
        return record(what, failure);
    }

    /**
     * Records a failed try that has no exception to report (e.g. a resource another process holds) and returns
     * how long to wait before the next try.
     *
     * @throws RetriesExhaustedException if failures have lasted past the deadline
     */
    public Duration next() {
        return record("A retried operation", null);
    }

    private Duration record(String what, Throwable failure) {
        long now = nanoTime.getAsLong();
        if (failures == 0) {
            firstFailure = now;
        }
        failures++;
        Duration failing = Duration.ofNanos(now - firstFailure);
        if (failing.compareTo(policy.deadline()) > 0) {
            throw new RetriesExhaustedException(what + " kept failing for " + failing + " (" + failures
                + " tries, deadline " + policy.deadline() + ")" + (failure == null ? "" : ": " + describe(failure)),
                failure);
        }
        return policy.backoff(failures, jitter.getAsDouble());
    }

    private static String describe(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    /** Failed tries since the last {@link #reset()}. */
    public int failures() {
        return failures;
    }

    /** Forgets the failures (after a success): the next wait is the initial one again. */
    public void reset() {
        failures = 0;
    }
}
