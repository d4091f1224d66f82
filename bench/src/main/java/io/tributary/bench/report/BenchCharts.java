package io.tributary.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The two charts of a results table: rows/s per measurement ({@code <prefix>-rate.svg}) and CPU per row
 * stacked by where it went, the JVM's own work, its JIT compiler threads and Postgres
 * ({@code <prefix>-cpu.svg}). A row without a rate shows "no rate"; a row without CPU figures shows "-". Under
 * each bar's scenario stands its configuration, or, where several rows share a scenario, the parts of their
 * configurations that tell them apart. Stateless.
 */
public final class BenchCharts {

    private BenchCharts() {
    }

    /** The rows/s chart of {@code rows}. */
    public static SvgBarChart rate(String title, List<ResultsMarkdown.Row> rows) {
        return new SvgBarChart(title + ": rows/s", "rows (or changes) per second", List.of("rows/s"),
            rows.stream().map(r -> new SvgBarChart.Bar(r.scenario(), detail(r, rows),
                r.rowsPerSecond().isPresent() ? List.of(r.rowsPerSecond().getAsDouble()) : List.of(), "no rate"))
                .toList());
    }

    /** The CPU per row chart of {@code rows}. */
    public static SvgBarChart cpu(String title, List<ResultsMarkdown.Row> rows) {
        return new SvgBarChart(title + ": CPU per row", "microseconds of CPU per row",
            List.of("JVM without JIT", "JIT compiler threads", "Postgres"),
            rows.stream().map(r -> new SvgBarChart.Bar(r.scenario(), detail(r, rows), r.cpu()
                .map(c -> List.of(c.jvmWithoutJit(), c.jit(), c.postgres())).orElse(List.of()), "-")).toList());
    }

    /**
     * The configuration of {@code row}, less the comma-separated parts that every other row of its scenario has
     * too (the whole configuration when the scenario has one row, or when nothing would be left).
     */
    static String detail(ResultsMarkdown.Row row, List<ResultsMarkdown.Row> rows) {
        List<ResultsMarkdown.Row> same = rows.stream().filter(r -> r.scenario().equals(row.scenario())).toList();
        if (same.size() < 2) {
            return row.configuration();
        }
        List<String> parts = List.of(row.configuration().split(", "));
        List<String> distinct = parts.stream().filter(part -> same.stream()
            .anyMatch(r -> !List.of(r.configuration().split(", ")).contains(part))).toList();
        return distinct.isEmpty() ? row.configuration() : String.join(", ", distinct);
    }

    /**
     * Writes both charts of {@code rows} into {@code directory} as {@code <prefix>-rate.svg} and
     * {@code <prefix>-cpu.svg} (replacing them) and returns their paths; the CPU chart is left out when no row
     * has CPU figures.
     */
    public static List<Path> write(Path directory, String prefix, String title, List<ResultsMarkdown.Row> rows)
            throws IOException {
        Path rate = directory.resolve(prefix + "-rate.svg");
        Files.writeString(rate, rate(title, rows).svg(), StandardCharsets.UTF_8);
        if (rows.stream().map(ResultsMarkdown.Row::cpu).noneMatch(Optional::isPresent)) {
            return List.of(rate);
        }
        Path cpu = directory.resolve(prefix + "-cpu.svg");
        Files.writeString(cpu, cpu(title, rows).svg(), StandardCharsets.UTF_8);
        return List.of(rate, cpu);
    }

    /**
     * Writes the charts of the first results table of the markdown file {@code results} beside it, named after
     * it ({@code 20261202-184536.md}: {@code 20261202-184536-rate.svg}, {@code 20261202-184536-cpu.svg}); writes
     * nothing while the file holds no results row yet.
     */
    public static List<Path> writeBeside(Path results) throws IOException {
        List<List<ResultsMarkdown.Row>> tables =
            ResultsMarkdown.tables(Files.readString(results, StandardCharsets.UTF_8));
        if (tables.isEmpty() || tables.get(0).isEmpty()) {
            return List.of();
        }
        String prefix = results.getFileName().toString().replaceFirst("\\.md$", "");
        return write(results.toAbsolutePath().getParent(), prefix, "Bench " + prefix, tables.get(0));
    }
}
