package io.tributary.writer.internals;

import java.time.Duration;
import java.util.Objects;

/**
 * How long and how often to retry a retriable failure: capped exponential backoff with jitter, within a deadline.
 *
 * <p>Attempt {@code n} (1-based) waits {@code min(maxBackoff, initialBackoff * 2^(n-1))}, scaled by a jitter
 * factor in {@code [0.5, 1.0)}, so writers that lost the same server do not come back in lock step. Once the
 * time since the first failure exceeds {@code deadline}, the failure becomes fatal.
 *
 * @param initialBackoff the first wait, positive
 * @param maxBackoff     the cap of a single wait, {@code >= initialBackoff}
 * @param deadline       how long one operation may keep failing before it is fatal, positive
 */
public record RetryPolicy(Duration initialBackoff, Duration maxBackoff, Duration deadline) {

    /** 100 ms doubling up to 5 s, for up to 5 minutes. */
    public static final RetryPolicy DEFAULT =
        new RetryPolicy(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMinutes(5));

    public RetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(deadline, "deadline");
        if (initialBackoff.isNegative() || initialBackoff.isZero() || deadline.isNegative() || deadline.isZero()
            || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("Retry policy needs 0 < initialBackoff <= maxBackoff and a positive"
                + " deadline, got " + initialBackoff + ", " + maxBackoff + ", " + deadline);
        }
    }

    /**
     * The wait before retry {@code attempt} (1-based).
     *
     * @param jitter a uniform random number in {@code [0, 1)}
     */
    public Duration backoff(int attempt, double jitter) {
        if (attempt < 1 || jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("attempt >= 1 and jitter in [0, 1) expected, got " + attempt + ", "
                + jitter);
        }
        long cap = maxBackoff.toNanos();
        long base = initialBackoff.toNanos();
        int shift = Math.min(attempt - 1, 62);
        long exponential = base > (cap >> shift) ? cap : Math.min(cap, base << shift);
        return Duration.ofNanos((long) (exponential * (0.5 + jitter / 2)));
    }
}
