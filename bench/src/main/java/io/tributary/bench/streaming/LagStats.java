package io.tributary.bench.streaming;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * End-to-end lag percentiles: per commit, from its commit to the first checkpoint seen covering it, in
 * milliseconds; commits no checkpoint covered are counted apart, never given a lag.
 */
record LagStats(long commits, long uncovered, double p50Millis, double p99Millis, double maxMillis) {

    LagStats {
        if (commits < 0 || uncovered < 0 || uncovered > commits) {
            throw new IllegalArgumentException("bad counts: " + commits + ", " + uncovered);
        }
    }

    /** The lags of {@code commits} against {@code watch}. */
    static LagStats of(List<PacedWriter.Commit> commits, CheckpointWatch watch) {
        double[] lags = new double[commits.size()];
        int covered = 0;
        for (PacedWriter.Commit commit : commits) {
            OptionalLong seen = watch.covering(commit.lsn());
            if (seen.isPresent()) {
                lags[covered++] = Math.max(0, seen.getAsLong() - commit.nanos()) / 1e6;
            }
        }
        double[] sorted = Arrays.copyOf(lags, covered);
        Arrays.sort(sorted);
        return new LagStats(commits.size(), commits.size() - covered, percentile(sorted, 0.50),
            percentile(sorted, 0.99), covered == 0 ? 0 : sorted[covered - 1]);
    }

    /** Nearest-rank percentile of sorted values; 0 for none. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** The notes of a lag row. */
    String notes() {
        return String.format(Locale.ROOT, "lag p50 %.0f ms, p99 %.0f ms, max %.0f ms over %,d commits%s",
            p50Millis, p99Millis, maxMillis, commits, uncovered == 0 ? "" : "; " + uncovered + " never covered");
    }
}
