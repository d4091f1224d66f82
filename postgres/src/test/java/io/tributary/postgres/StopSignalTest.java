package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StopSignalTest {

    private final StopSignal stop = new StopSignal();

    @Test
    void aPauseEndsAtOnceOnceStopped() {
        stop.stop();

        assertThat(stop.pause(Duration.ofHours(1))).isFalse();
        assertThat(stop.isStopped()).isTrue();
    }

    @Test
    void aPauseThatIsNotStoppedRunsItsFullTime() {
        assertThat(stop.pause(Duration.ofNanos(1))).isTrue();
        assertThat(stop.isStopped()).isFalse();
    }

    @Test
    void anInterruptedPauseReturnsFalseAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThat(stop.pause(Duration.ofHours(1))).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
