package io.tributary.bench.pipeline;

import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.PeakRss;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The one markdown table a bench run prints: a row per measurement, each with its rate next to the baseline's
 * rate measured in the same run, and the peak memory and CPU per row measured during it. Rows keep the order they
 * were added. Not thread-safe.
 */
public final class ResultTable {

    /**
     * One measurement; {@code outcome} is "ok" or what went wrong (failed, timed out), never hidden; {@code rows}
     * is what the rate counts (rows, or WAL changes where the configuration says so); {@code memory} and
     * {@code cpu} are what the whole measurement used (the bench adds them to every row it records).
     */
    public record Row(String scenario, String configuration, long rows, double seconds, String outcome,
                      String notes, Optional<PeakRss> memory, Optional<CpuUse> cpu) {
        public Row {
            Objects.requireNonNull(scenario, "scenario");
            Objects.requireNonNull(configuration, "configuration");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(notes, "notes");
            Objects.requireNonNull(memory, "memory");
            Objects.requireNonNull(cpu, "cpu");
            if (rows < 0 || seconds < 0) {
                throw new IllegalArgumentException("rows and seconds must be >= 0: " + rows + ", " + seconds);
            }
        }

        /** A completed measurement of {@code rows} rows in {@code seconds}. */
        public static Row ok(String scenario, String configuration, long rows, double seconds, String notes) {
            return new Row(scenario, configuration, rows, seconds, "ok", notes, Optional.empty(), Optional.empty());
        }

        /** A measurement that did not complete; its rate is not reported. */
        public static Row failed(String scenario, String configuration, long rows, double seconds,
                                 String outcome) {
            return new Row(scenario, configuration, rows, seconds, outcome, "", Optional.empty(), Optional.empty());
        }

        /** Whether the measurement completed. */
        public boolean isOk() {
            return "ok".equals(outcome);
        }

        /** Rows per second, present only for a completed measurement that took time. */
        public Optional<Double> rate() {
            return isOk() && seconds > 0 ? Optional.of(rows / seconds) : Optional.empty();
        }

        /** This row with the peak memory and the CPU its measurement used. */
        public Row withUsage(PeakRss peak, CpuUse used) {
            return new Row(scenario, configuration, rows, seconds, outcome, notes, Optional.of(peak),
                Optional.of(used));
        }

        /** This row with the CPU used over its own timed window (kept instead of the whole measurement's). */
        public Row withCpu(CpuUse used) {
            return new Row(scenario, configuration, rows, seconds, outcome, notes, memory, Optional.of(used));
        }

        /** This row with {@code prefix} in front of its notes. */
        public Row withNotePrefix(String prefix) {
            String joined = notes.isEmpty() ? prefix : prefix + "; " + notes;
            return new Row(scenario, configuration, rows, seconds, outcome, joined, memory, cpu);
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private Optional<Row> baseline = Optional.empty();

    /** Adds a row. */
    public void add(Row row) {
        rows.add(Objects.requireNonNull(row, "row"));
    }

    /** Adds a row and makes it the baseline every ratio is computed against. */
    public void addBaseline(Row row) {
        add(row);
        baseline = Optional.of(row);
    }

    /** The rows in the order they were added. */
    public List<Row> rows() {
        return List.copyOf(rows);
    }

    /** The markdown table, one line per row after the header, ending with a newline. */
    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| scenario | configuration | rows | seconds | rows/s | vs baseline | peak RSS MiB (JVM / PG) "
            + "| CPU us/row (JVM (JIT) / PG) | notes |\n");
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        Optional<Double> base = baseline.flatMap(Row::rate);
        for (Row row : rows) {
            String rate = row.rate().map(r -> String.format(Locale.ROOT, "%,.0f", r)).orElse(row.outcome());
            String ratio = row.rate().flatMap(r -> base.map(b -> String.format(Locale.ROOT, "%.2fx", r / b)))
                .orElse("-");
            String memory = row.memory().map(PeakRss::toMebibytes).orElse("-");
            String cpu = row.cpu().filter(c -> row.isOk()).map(c -> c.perRow(row.rows())).orElse("-");
            out.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.2f | %s | %s | %s | %s | %s |%n",
                row.scenario(), row.configuration(), row.rows(), row.seconds(), rate, ratio, memory, cpu,
                row.notes()));
        }
        return out.toString();
    }
}
