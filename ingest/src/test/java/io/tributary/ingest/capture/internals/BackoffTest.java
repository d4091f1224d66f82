package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void waitsGrowExponentiallyWithJitterUpToTheCap() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));

        assertThat(backoff.next()).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
        assertThat(backoff.next()).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(backoff.next()).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
        for (int i = 0; i < 50; i++) {
            assertThat(backoff.next()).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
        }
    }

    @Test
    void resetStartsOver() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            backoff.next();
        }
        backoff.reset();

        assertThat(backoff.next()).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
    }
}
