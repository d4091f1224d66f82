package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceLagTest {

    @Test
    void notBehindBeforeAnyTransaction() {
        assertThat(new SourceLag().behind()).isFalse();
    }

    @Test
    void behindOnceATransactionIsOlderThanTheSmallestAgeByMoreThanTheMargin() {
        SourceLag lag = new SourceLag();
        lag.committed(10_000, 10_050);
        assertThat(lag.behind()).isFalse();

        lag.committed(11_000, 12_000);
        assertThat(lag.behind()).isFalse();

        lag.committed(12_000, 13_100);
        assertThat(lag.behind()).isTrue();

        lag.committed(14_000, 14_020);
        assertThat(lag.behind()).isFalse();
    }

    @Test
    void aConstantClockOffsetIsNotABacklog() {
        SourceLag lag = new SourceLag();
        lag.committed(100_000, 40_000);
        lag.committed(101_000, 41_200);
        assertThat(lag.behind()).isFalse();

        lag.committed(102_000, 43_100);
        assertThat(lag.behind()).isTrue();
    }
}
