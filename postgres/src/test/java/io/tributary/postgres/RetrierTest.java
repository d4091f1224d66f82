package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RetrierTest {

    private static final RetryPolicy POLICY =
        new RetryPolicy(Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofSeconds(10));

    private final AtomicLong now = new AtomicLong();
    private final StopSignal stop = new StopSignal();
    private final Retrier retrier = new Retrier(POLICY, backoff -> {
        now.addAndGet(backoff.toNanos());
        return !stop.isStopped();
    }, now::get, () -> 0.0);

    @Test
    void retriableFailuresAreRetriedUntilSuccess() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<Duration> waits = new ArrayList<>();

        String result = retrier.call("op", () -> {
            if (calls.incrementAndGet() < 4) {
                throw new SQLException("deadlock", "40P01");
            }
            return "done";
        }, (e, attempt, backoff) -> waits.add(backoff));

        assertThat(result).isEqualTo("done");
        assertThat(waits).containsExactly(Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2));
    }

    @Test
    void aFatalFailureIsThrownAtOnce() {
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> retrier.call("op", () -> {
            calls.incrementAndGet();
            throw new SQLException("no such table", "42P01");
        }, (e, attempt, backoff) -> { })).isInstanceOf(SQLException.class).hasMessage("no such table");
        assertThat(calls).hasValue(1);
    }

    @Test
    void retriableFailuresPastTheDeadlineBecomeFatal() {
        assertThatThrownBy(() -> retrier.call("commit", () -> {
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            throw new SQLException("connection lost", "08006");
        }, (e, attempt, backoff) -> { })).isInstanceOf(RetriesExhaustedException.class)
            .hasMessageContaining("commit kept failing").hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void shutdownAbandonsTheRetryAtOnce() {
        stop.stop();

        assertThatThrownBy(() -> retrier.call("commit", () -> {
            throw new SQLException("connection lost", "08006");
        }, (e, attempt, backoff) -> { })).isInstanceOf(StoppedException.class);
    }

    @Test
    void anInterruptWhileWaitingStopsTheRetryAndKeepsTheFlag() {
        Retrier waiting = new Retrier(POLICY, new StopSignal(), now::get, () -> 0.0);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> waiting.call("commit", () -> {
                throw new SQLException("connection lost", "08006");
            })).isInstanceOf(StoppedException.class).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
