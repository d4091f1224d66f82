package io.tributary.bench.streaming;

import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * End-to-end lag percentiles: per commit, from its commit to the first checkpoint seen covering it, in
 * milliseconds; commits no checkpoint covered are counted apart, never given a lag.
 */
record LagStats(long commits, long uncovered, double p50Millis, double p99Millis, double maxMillis,
                List<Double> p99BySliceMillis) {

    /** How long a slice of the run is whose p99 the notes list, so a tail shows when it happened. */
    static final Duration SLICE = Duration.ofSeconds(5);

    LagStats {
        p99BySliceMillis = List.copyOf(p99BySliceMillis);
        if (commits < 0 || uncovered < 0 || uncovered > commits) {
            throw new IllegalArgumentException("bad counts: " + commits + ", " + uncovered);
        }
    }

    /** The lags of {@code commits} (in commit order) given when a checkpoint first covered an LSN (nanos). */
    static LagStats of(List<PacedWriter.Commit> commits, Function<Lsn, OptionalLong> coveredAt) {
        double[] lags = new double[commits.size()];
        int covered = 0;
        List<List<Double>> slices = new ArrayList<>();
        long start = commits.isEmpty() ? 0 : commits.get(0).nanos();
        for (PacedWriter.Commit commit : commits) {
            OptionalLong seen = coveredAt.apply(commit.lsn());
            if (seen.isPresent()) {
                double lag = Math.max(0, seen.getAsLong() - commit.nanos()) / 1e6;
                lags[covered++] = lag;
                int slice = (int) ((commit.nanos() - start) / SLICE.toNanos());
                while (slices.size() <= slice) {
                    slices.add(new ArrayList<>());
                }
                slices.get(slice).add(lag);
            }
        }
        double[] sorted = Arrays.copyOf(lags, covered);
        Arrays.sort(sorted);
        List<Double> p99BySlice = slices.stream()
            .map(slice -> percentile(slice.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 0.99))
            .toList();
        return new LagStats(commits.size(), commits.size() - covered, percentile(sorted, 0.50),
            percentile(sorted, 0.99), covered == 0 ? 0 : sorted[covered - 1], p99BySlice);
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
        String bySlice = p99BySliceMillis.stream().map(p -> String.format(Locale.ROOT, "%.0f", p))
            .collect(Collectors.joining(" / "));
        return String.format(Locale.ROOT, "lag p50 %.0f ms, p99 %.0f ms, max %.0f ms over %,d commits%s; "
                + "p99 per %d s of commits: %s ms", p50Millis, p99Millis, maxMillis, commits,
            uncovered == 0 ? "" : "; " + uncovered + " never covered", SLICE.toSeconds(), bySlice);
    }
}
