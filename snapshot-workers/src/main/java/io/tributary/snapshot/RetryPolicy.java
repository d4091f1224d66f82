package io.tributary.snapshot;

import java.time.Duration;
import java.util.Objects;

/**
 * How long and how often to retry a transient failure (SQLSTATE class 08, 40001, ... as {@code SqlErrors} decides,
 * or a Kafka timeout): capped exponential backoff with jitter, within a deadline.
 *
 * <p>Retry {@code n} (1-based) waits {@code min(maxBackoff, initialBackoff * 2^(n-1))} scaled by a jitter factor in
 * {@code [0.5, 1.0)}, so workers that lost the same server do not return in lock step. Once the time since the
 * first failure exceeds {@code deadline}, the failure is final.
 *
 * @param initialBackoff the first wait, positive
 * @param maxBackoff     the cap of one wait, {@code >= initialBackoff}
 * @param deadline       how long one operation may keep failing, positive
 */
public record RetryPolicy(Duration initialBackoff, Duration maxBackoff, Duration deadline) {

    /** 200 ms doubling up to 10 s, for up to 10 minutes. */
    public static final RetryPolicy DEFAULT =
        new RetryPolicy(Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMinutes(10));

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
