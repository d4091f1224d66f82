package io.tributary.snapshot.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.snapshot.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PacerTest {

    private static final RetryPolicy POLICY =
        new RetryPolicy(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(10));

    @Test
    void backoffDoublesUpToTheCap() {
        AtomicLong now = new AtomicLong();
        Pacer pacer = new Pacer(POLICY, now::get, () -> 0.999999);
        Exception failure = new java.sql.SQLException("gone", "08006");

        assertThat(pacer.failed("read", failure)).isBetween(Duration.ofMillis(99), Duration.ofMillis(100));
        assertThat(pacer.failed("read", failure)).isBetween(Duration.ofMillis(199), Duration.ofMillis(200));
        assertThat(pacer.failed("read", failure)).isBetween(Duration.ofMillis(399), Duration.ofMillis(400));
        assertThat(pacer.failed("read", failure)).isBetween(Duration.ofMillis(799), Duration.ofMillis(800));
        assertThat(pacer.failed("read", failure)).isBetween(Duration.ofMillis(999), Duration.ofSeconds(1));
    }

    @Test
    void jitterHalvesAtMost() {
        Pacer pacer = new Pacer(POLICY, () -> 0, () -> 0.0);

        assertThat(pacer.failed("read", new RuntimeException())).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void failuresPastTheDeadlineAreFinal() {
        AtomicLong now = new AtomicLong();
        Pacer pacer = new Pacer(POLICY, now::get, () -> 0.5);
        pacer.failed("read of chunk w#1", new RuntimeException("first"));
        now.set(Duration.ofSeconds(11).toNanos());

        assertThatThrownBy(() -> pacer.failed("read of chunk w#1", new RuntimeException("again")))
            .isInstanceOf(RetriesExhaustedException.class)
            .hasMessageContaining("read of chunk w#1").hasMessageContaining("again");
    }
}
