package io.tributary.bench.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.topics.messages.Lsn;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
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

    @Test
    void theTailIsListedPerSliceOfCommitTime() {
        long second = 1_000_000_000L;
        List<PacedWriter.Commit> commits = new ArrayList<>();
        for (int i = 0; i < 12; i++) { // one commit a second, LSN i; covered 100 ms later, the first two 3 s later
            commits.add(new PacedWriter.Commit(i * second, Lsn.of(i)));
        }
        LagStats stats = LagStats.of(commits, lsn -> lsn.value() == 11 ? OptionalLong.empty()
            : OptionalLong.of(lsn.value() * second + (lsn.value() < 2 ? 3 * second : second / 10)));

        assertEquals(List.of(3000.0, 100.0, 100.0), stats.p99BySliceMillis());
        assertEquals("lag p50 100 ms, p99 3000 ms, max 3000 ms over 12 commits; 1 never covered; "
            + "p99 per 5 s of commits: 3000 / 100 / 100 ms", stats.notes());
    }
}
