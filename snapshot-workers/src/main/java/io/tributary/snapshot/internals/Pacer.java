package io.tributary.snapshot.internals;

import io.tributary.snapshot.RetryPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Paces the retries of one operation by a {@link RetryPolicy}: counts failures since the last success, knows the
 * deadline, and computes the next backoff. The clock ({@code nanoTime}) and jitter are injected for tests.
 *
 * <p>Not thread-safe: one per operation in progress.
 */
public final class Pacer {

    private final RetryPolicy policy;
    private final LongSupplier nanoTime;
    private final DoubleSupplier jitter;
    private long firstFailure;
    private int failures;

    /** A pacer of {@code policy} with clock {@code nanoTime} and jitter source {@code jitter} in [0, 1). */
    public Pacer(RetryPolicy policy, LongSupplier nanoTime, DoubleSupplier jitter) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /**
     * Records a failure and returns how long to wait before the next try.
     *
     * @throws RetriesExhaustedException if failures have lasted past the deadline
     */
    public Duration failed(String what, Throwable failure) {
        long now = nanoTime.getAsLong();
        if (failures == 0) {
            firstFailure = now;
        }
        failures++;
        Duration failing = Duration.ofNanos(now - firstFailure);
        if (failing.compareTo(policy.deadline()) > 0) {
            throw new RetriesExhaustedException(what + " kept failing for " + failing + " (" + failures
                + " tries, deadline " + policy.deadline() + "): " + Failures.describe(failure), failure);
        }
        return policy.backoff(failures, jitter.getAsDouble());
    }

    /** Failures since the last {@link #reset()}. */
    public int failures() {
        return failures;
    }

    /** Forgets the failures (after a success). */
    public void reset() {
        failures = 0;
    }
}
