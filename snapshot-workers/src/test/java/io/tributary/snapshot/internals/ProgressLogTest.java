package io.tributary.snapshot.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressLogTest {

    @Test
    void ratesAreWrittenInRowsThousandsOrMillionsPerSecond() {
        assertThat(ProgressLog.rate(950, 1_000_000_000L)).isEqualTo("950 rows/s");
        assertThat(ProgressLog.rate(4_120_000, 10_000_000_000L)).isEqualTo("412k rows/s");
        assertThat(ProgressLog.rate(2_500_000, 2_000_000_000L)).isEqualTo("1.3M rows/s");
        assertThat(ProgressLog.rate(10, 0)).isEqualTo("0 rows/s");
    }
}
