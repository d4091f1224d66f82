package io.tributary.postgres;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * How long and how often to retry a retriable failure: capped exponential backoff with jitter, within a deadline.
 *
 * <p>Retry {@code n} (1-based) waits {@code min(maxBackoff, initialBackoff * 2^(n-1))}, scaled by a jitter factor in
 * {@code [0.5, 1.0)}, so processes that lost the same server do not come back in lock step. Once the time since
 * the first failure of an operation exceeds {@code deadline}, the failure is final ({@link Backoff},
 * {@link Retrier}). Immutable and thread-safe.
 *
 * @param initialBackoff the first wait, positive
 * @param maxBackoff     the cap of a single wait, {@code >= initialBackoff}
 * @param deadline       how long one operation may keep failing before it is fatal, positive;
 *                       {@link #NO_DEADLINE} for loops that retry for as long as they run
 */
public record RetryPolicy(Duration initialBackoff, Duration maxBackoff, Duration deadline) {

    /** The deadline of a policy that never gives up ({@link #withoutDeadline}). */
    public static final Duration NO_DEADLINE = ChronoUnit.FOREVER.getDuration();

    public RetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(deadline, "deadline");
        if (initialBackoff.isNegative() || initialBackoff.isZero() || deadline.isNegative() || deadline.isZero()
            || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("A retry policy needs 0 < initialBackoff <= maxBackoff and a positive"
                + " deadline, got " + initialBackoff + ", " + maxBackoff + ", " + deadline);
        }
    }

    /** Waits from {@code initialBackoff} doubling up to {@code maxBackoff}, giving up after {@code deadline}. */
    public static RetryPolicy of(Duration initialBackoff, Duration maxBackoff, Duration deadline) {
        return new RetryPolicy(initialBackoff, maxBackoff, deadline);
    }

    /** Waits from {@code initialBackoff} doubling up to {@code maxBackoff}, never giving up. */
    public static RetryPolicy withoutDeadline(Duration initialBackoff, Duration maxBackoff) {
        return new RetryPolicy(initialBackoff, maxBackoff, NO_DEADLINE);
    }

    /** Whether failures become final after {@link #deadline()}. */
    public boolean hasDeadline() {
        return !deadline.equals(NO_DEADLINE);
    }

    /**
     * The wait before retry {@code retry} (1-based).
     *
     * @param jitter a uniform random number in {@code [0, 1)}
     */
    public Duration backoff(int retry, double jitter) {
        if (retry < 1 || jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("retry >= 1 and jitter in [0, 1) expected, got " + retry + ", "
                + jitter);
        }
        long cap = maxBackoff.toNanos();
        long base = initialBackoff.toNanos();
        int shift = Math.min(retry - 1, 62);
        long exponential = base > (cap >> shift) ? cap : Math.min(cap, base << shift);
        return Duration.ofNanos((long) (exponential * (0.5 + jitter / 2)));
    }
}
