package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final RetryPolicy POLICY =
        new RetryPolicy(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(10));

    @Test
    void backoffDoublesUpToTheCap() {
        AtomicLong now = new AtomicLong();
        Backoff backoff = new Backoff(POLICY, now::get, () -> 0.999999);
        Exception failure = new SQLException("gone", "08006");

        assertThat(backoff.failed("read", failure)).isBetween(Duration.ofMillis(99), Duration.ofMillis(100));
        assertThat(backoff.failed("read", failure)).isBetween(Duration.ofMillis(199), Duration.ofMillis(200));
        assertThat(backoff.failed("read", failure)).isBetween(Duration.ofMillis(399), Duration.ofMillis(400));
        assertThat(backoff.failed("read", failure)).isBetween(Duration.ofMillis(799), Duration.ofMillis(800));
        assertThat(backoff.failed("read", failure)).isBetween(Duration.ofMillis(999), Duration.ofSeconds(1));
    }

    @Test
    void jitterHalvesAtMost() {
        Backoff backoff = new Backoff(POLICY, () -> 0, () -> 0.0);

        assertThat(backoff.failed("read", new RuntimeException())).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void failuresPastTheDeadlineAreFinal() {
        AtomicLong now = new AtomicLong();
        Backoff backoff = new Backoff(POLICY, now::get, () -> 0.5);
        backoff.failed("read of chunk w#1", new RuntimeException("first"));
        now.set(Duration.ofSeconds(11).toNanos());

        assertThatThrownBy(() -> backoff.failed("read of chunk w#1", new RuntimeException("again")))
            .isInstanceOf(RetriesExhaustedException.class)
            .hasMessageContaining("read of chunk w#1").hasMessageContaining("again");
    }

    @Test
    void waitsGrowExponentiallyWithJitterUpToTheCap() {
        Backoff backoff = Backoff.of(RetryPolicy.withoutDeadline(Duration.ofMillis(100), Duration.ofSeconds(1)));

        assertThat(backoff.next()).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
        assertThat(backoff.next()).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(backoff.next()).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(backoff.next()).isBetween(Duration.ofMillis(400), Duration.ofMillis(800));
        for (int i = 0; i < 50; i++) {
            assertThat(backoff.next()).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
        }
    }

    @Test
    void resetStartsOver() {
        Backoff backoff = Backoff.of(RetryPolicy.withoutDeadline(Duration.ofMillis(100), Duration.ofSeconds(1)));
        for (int i = 0; i < 10; i++) {
            backoff.next();
        }
        backoff.reset();

        assertThat(backoff.next()).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void aPolicyWithoutDeadlineNeverGivesUp() {
        AtomicLong now = new AtomicLong();
        Backoff backoff = new Backoff(RetryPolicy.withoutDeadline(Duration.ofMillis(100), Duration.ofSeconds(1)),
            now::get, () -> 0.5);
        backoff.failed("standby", new RuntimeException("first"));
        now.set(Long.MAX_VALUE);

        assertThat(backoff.failed("standby", new RuntimeException("again"))).isEqualTo(Duration.ofMillis(150));
    }
}
