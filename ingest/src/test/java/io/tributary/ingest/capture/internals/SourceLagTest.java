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
        lag.batch(10_000, 10_050, 1_000);
        assertThat(lag.behind()).isFalse();

        lag.batch(11_000, 12_000, 1_000);
        assertThat(lag.behind()).isFalse();

        lag.batch(12_000, 13_100, 1_000);
        assertThat(lag.behind()).isTrue();

        lag.batch(14_000, 14_020, 1_000);
        assertThat(lag.behind()).isFalse();
    }

    @Test
    void aConstantClockOffsetIsNotABacklog() {
        SourceLag lag = new SourceLag();
        lag.batch(100_000, 40_000, 1_000);
        lag.batch(101_000, 41_200, 1_000);
        assertThat(lag.behind()).isFalse();

        lag.batch(102_000, 43_100, 1_000);
        assertThat(lag.behind()).isTrue();
    }

    @Test
    void aSmallBatchIsNeverBehindHoweverLate() {
        SourceLag lag = new SourceLag();
        lag.batch(10_000, 10_050, 3);
        lag.batch(11_000, 15_000, 3);
        assertThat(lag.behind()).isFalse();

        lag.batch(12_000, 16_000, SourceLag.BACKLOG_RECORDS);
        assertThat(lag.behind()).isTrue();
    }
}
