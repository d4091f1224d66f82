package io.tributary.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The three charts of a results table: rows/s per measurement ({@code <prefix>-rate.svg}), CPU per row
 * stacked by where it went, the JVM's own work, its JIT compiler threads and Postgres
 * ({@code <prefix>-cpu.svg}), and CPU per row stacked by role, for the rows whose notes break it down
 * ({@code <prefix>-roles.svg}). A row without a rate shows "no rate"; a row without CPU figures shows "-"; a row
 * without a breakdown by role is left out of the roles chart. Under each bar's scenario stands its configuration,
 * or, where several rows of the chart share a scenario, the parts of their configurations that tell them apart.
 * Stateless.
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
     * The CPU per row by role chart of {@code rows}: one bar per row whose notes give its CPU by role
     * ({@link ResultsMarkdown.Row#cpuByRole()}), the others left out; the roles are the series, in the order they
     * first appear across the rows, a row without one of them stacking 0 for it. A negative figure stacks 0 too
     * (a bar cannot go below the axis); roles beyond what a chart can colour are summed as {@code other roles}.
     */
    public static SvgBarChart roles(String title, List<ResultsMarkdown.Row> rows) {
        List<ResultsMarkdown.Row> broken = rows.stream().filter(r -> r.cpuByRole().isPresent()).toList();
        Set<String> names = new LinkedHashSet<>();
        broken.forEach(r -> names.addAll(r.cpuByRole().orElseThrow().keySet()));
        List<String> roles = new ArrayList<>(names);
        List<String> series = roles.size() <= SvgBarChart.MAX_SERIES ? roles
            : new ArrayList<>(roles.subList(0, SvgBarChart.MAX_SERIES - 1));
        if (series.size() < roles.size()) {
            series.add("other roles");
        }
        return new SvgBarChart(title + ": CPU per row by role", "microseconds of CPU per row",
            series.isEmpty() ? List.of("CPU per row") : series,
            broken.stream().map(r -> new SvgBarChart.Bar(r.scenario(), detail(r, broken),
                stack(r.cpuByRole().orElseThrow(), roles, series.size()), "-")).toList());
    }

    /** {@code byRole} as {@code size} segments in the order of {@code roles}, the last taking any role beyond. */
    private static List<Double> stack(Map<String, Double> byRole, List<String> roles, int size) {
        double[] values = new double[size];
        for (int i = 0; i < roles.size(); i++) {
            values[Math.min(i, size - 1)] += Math.max(0, byRole.getOrDefault(roles.get(i), 0.0));
        }
        return Arrays.stream(values).boxed().toList();
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
     * Writes the three charts of {@code rows} into {@code directory} as {@code <prefix>-rate.svg},
     * {@code <prefix>-cpu.svg} and {@code <prefix>-roles.svg} (replacing them) and returns their paths in that
     * order; the CPU chart is left out when no row has CPU figures, the roles chart when no row has a breakdown by
     * role.
     */
    public static List<Path> write(Path directory, String prefix, String title, List<ResultsMarkdown.Row> rows)
            throws IOException {
        List<Path> written = new ArrayList<>();
        Path rate = directory.resolve(prefix + "-rate.svg");
        Files.writeString(rate, rate(title, rows).svg(), StandardCharsets.UTF_8);
        written.add(rate);
        if (rows.stream().map(ResultsMarkdown.Row::cpu).anyMatch(Optional::isPresent)) {
            Path cpu = directory.resolve(prefix + "-cpu.svg");
            Files.writeString(cpu, cpu(title, rows).svg(), StandardCharsets.UTF_8);
            written.add(cpu);
        }
        if (rows.stream().map(ResultsMarkdown.Row::cpuByRole).anyMatch(Optional::isPresent)) {
            Path roles = directory.resolve(prefix + "-roles.svg");
            Files.writeString(roles, roles(title, rows).svg(), StandardCharsets.UTF_8);
            written.add(roles);
        }
        return List.copyOf(written);
    }

    /**
     * Writes the charts of the first results table of the markdown file {@code results} beside it, named after
     * it ({@code 20261202-184536.md}: {@code 20261202-184536-rate.svg}, {@code 20261202-184536-cpu.svg},
     * {@code 20261202-184536-roles.svg}, each as {@link #write} leaves it out or not); writes nothing while the
     * file holds no results row yet.
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
