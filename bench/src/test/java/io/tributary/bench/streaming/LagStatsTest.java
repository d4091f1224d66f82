package io.tributary.bench.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LagStatsTest {

    @Test
    void percentileIsTheNearestRank() {
        double[] sorted = new double[100];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }

        assertEquals(50.0, LagStats.percentile(sorted, 0.50));
        assertEquals(99.0, LagStats.percentile(sorted, 0.99));
        assertEquals(0.0, LagStats.percentile(new double[0], 0.99));
    }
}
