package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final RetryPolicy POLICY =
        new RetryPolicy(Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofMinutes(1));

    @Test
    void backoffDoublesPerAttempt() {
        assertThat(POLICY.backoff(1, 0.999999)).isBetween(Duration.ofMillis(99), Duration.ofMillis(100));
        assertThat(POLICY.backoff(2, 0.999999)).isBetween(Duration.ofMillis(199), Duration.ofMillis(200));
        assertThat(POLICY.backoff(3, 0.999999)).isBetween(Duration.ofMillis(399), Duration.ofMillis(400));
    }

    @Test
    void backoffIsCappedAtMaxBackoffEvenForHugeAttempts() {
        assertThat(POLICY.backoff(10, 0.999999)).isBetween(Duration.ofMillis(1999), Duration.ofSeconds(2));
        assertThat(POLICY.backoff(1_000, 0.999999)).isBetween(Duration.ofMillis(1999), Duration.ofSeconds(2));
    }

    @Test
    void jitterScalesTheWaitBetweenHalfAndAll() {
        assertThat(POLICY.backoff(3, 0)).isEqualTo(Duration.ofMillis(200));
        assertThat(POLICY.backoff(3, 0.5)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void anInvalidPolicyIsRejected() {
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMinutes(1)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
