package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReplicationLagTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void aCheckpointAtTheSourcePositionHasNoLag() {
        ReplicationLag lag = new ReplicationLag(Duration.ofHours(1));
        lag.sample(T0, Lsn.of(100));

        assertThat(lag.lag(Lsn.of(100), T0.plusSeconds(5))).isZero();
    }

    @Test
    void lagIsTheAgeOfTheOldestUncoveredSourcePosition() {
        ReplicationLag lag = new ReplicationLag(Duration.ofHours(1));
        lag.sample(T0, Lsn.of(100));
        lag.sample(T0.plusSeconds(1), Lsn.of(200));
        lag.sample(T0.plusSeconds(2), Lsn.of(300));

        assertThat(lag.lag(Lsn.of(150), T0.plusSeconds(10))).isEqualTo(Duration.ofSeconds(9));
        assertThat(lag.lag(Lsn.of(250), T0.plusSeconds(10))).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aLagBeyondTheRetentionReadsAsTheRetention() {
        ReplicationLag lag = new ReplicationLag(Duration.ofSeconds(60));
        for (int second = 0; second <= 120; second++) {
            lag.sample(T0.plusSeconds(second), Lsn.of(1000 + second));
        }

        assertThat(lag.lag(Lsn.of(0), T0.plusSeconds(120))).isEqualTo(Duration.ofSeconds(60));
    }
}
