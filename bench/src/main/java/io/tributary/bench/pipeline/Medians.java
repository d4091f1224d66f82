package io.tributary.bench.pipeline;

import io.tributary.bench.pipeline.ResultTable.Row;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The row reported for {@code N} runs of one configuration: the run of median seconds, or the first failure. */
public final class Medians {

    private Medians() {
    }

    /**
     * One run: itself. Several runs that all completed: the run whose seconds are the median (the upper one of an
     * even count), noted with every run's seconds. Otherwise: the first failed run, noted with how many failed.
     */
    public static Row of(List<Row> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs");
        }
        if (runs.size() == 1) {
            return runs.get(0);
        }
        List<Row> failed = runs.stream().filter(r -> !r.isOk()).toList();
        if (!failed.isEmpty()) {
            return failed.get(0).withNotePrefix(failed.size() + " of " + runs.size() + " runs failed");
        }
        List<Row> sorted = runs.stream().sorted(Comparator.comparingDouble(Row::seconds)).toList();
        String all = runs.stream().map(r -> String.format(Locale.ROOT, "%.2f", r.seconds()))
            .collect(Collectors.joining(" / "));
        return sorted.get(sorted.size() / 2).withNotePrefix("median of " + runs.size() + " runs (" + all + " s)");
    }
}
