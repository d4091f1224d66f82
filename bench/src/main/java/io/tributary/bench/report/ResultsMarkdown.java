package io.tributary.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the results tables of a markdown text, as the bench writes them: a table whose header starts with
 * {@code | scenario | configuration |} and has a {@code rows/s} column, optionally a
 * {@code CPU us/row (JVM (JIT) / PG)} column, and a {@code notes} column whose CPU by role a row can carry
 * ({@link Row#cpuByRole()}). Any other table or text is skipped, so a results file, a page that quotes several
 * tables, or a table without the CPU column (older files) all read. Stateless.
 */
public final class ResultsMarkdown {

    private static final Pattern CPU = Pattern.compile("^([0-9,]+) \\(JIT ([0-9,]+)\\) / ([0-9,]+)$");
    /**
     * The phrases that open a CPU by role list in a row's notes, as the bench writes them: the single-JVM pipeline
     * rows' ({@code SnapshotSeries}) and the multi-process rows' ({@code MultiProcess}).
     */
    private static final List<String> BY_ROLE = List.of("CPU us/row by role: ",
        "CPU us/row outside the JIT by process: ");
    /** One entry of such a list: a role, its figure, and what a parenthesis adds ({@code (JIT 18.3)}). */
    private static final Pattern ROLE = Pattern.compile("^(\\S.*?) (-?[0-9][0-9,]*(?:\\.[0-9]+)?)(?: \\(.*\\))?$");

    private ResultsMarkdown() {
    }

    /**
     * CPU per row of one measurement, in microseconds: {@code jvm} is the whole JVM's and includes {@code jit},
     * the part its compiler threads used; {@code postgres} is the Postgres servers'.
     */
    public record Cpu(double jvm, double jit, double postgres) {
        public Cpu {
            if (jvm < 0 || jit < 0 || postgres < 0 || jit > jvm) {
                throw new IllegalArgumentException("CPU per row must be >= 0 and JIT <= JVM: " + jvm + ", " + jit
                    + ", " + postgres);
            }
        }

        /** The JVM's CPU outside its JIT compiler threads. */
        public double jvmWithoutJit() {
            return jvm - jit;
        }
    }

    /**
     * One row of a results table: its scenario and configuration as written, its rate (empty when the row has
     * none: a failure or a timeout), its CPU per row (empty when the table has no CPU column or the row shows
     * {@code -}) and its notes as written (empty when the table has no notes column).
     */
    public record Row(String scenario, String configuration, OptionalDouble rowsPerSecond, Optional<Cpu> cpu,
                      String notes) {
        public Row {
            Objects.requireNonNull(scenario, "scenario");
            Objects.requireNonNull(configuration, "configuration");
            Objects.requireNonNull(rowsPerSecond, "rowsPerSecond");
            Objects.requireNonNull(cpu, "cpu");
            Objects.requireNonNull(notes, "notes");
        }

        /**
         * The CPU per row by role that the notes give, in microseconds, role by role in the notes' order: the list
         * after the first {@code CPU us/row by role: } (a single-JVM pipeline row: {@code ingest/planner 3.0,
         * snapshot-workers 7.5, ..., storage Postgres 10.7}) or {@code CPU us/row outside the JIT by process: } (a
         * row of roles as processes: {@code ingest/planner 26.2 (JIT 18.3), ..., Kafka broker 61.5, ...}, the figure
         * before the parenthesis), up to the next {@code ;} or the end of the notes. Figures may have thousands
         * separators and may be negative (a share measured as a difference); a role named twice has its figures
         * summed. Empty when the notes hold neither phrase, or when an entry of the list is not a name and a figure.
         */
        public Optional<Map<String, Double>> cpuByRole() {
            return ResultsMarkdown.cpuByRole(notes);
        }
    }

    /** Every results table of {@code markdown}, in order; each table is its rows in order. */
    public static List<List<Row>> tables(String markdown) {
        List<List<Row>> tables = new ArrayList<>();
        List<String> header = null;
        List<Row> current = null;
        for (String line : markdown.split("\\R")) {
            String trimmed = line.strip();
            if (!trimmed.startsWith("|")) {
                header = null;
                current = null;
                continue;
            }
            List<String> cells = cells(trimmed);
            if (header == null) {
                if (isResultsHeader(cells)) {
                    header = cells;
                    current = new ArrayList<>();
                    tables.add(current);
                }
            } else if (!cells.isEmpty() && !cells.get(0).startsWith("---")) {
                current.add(row(header, cells));
            }
        }
        return tables;
    }

    /** The {@code index}-th (from 1) results table of {@code markdown}. */
    public static List<Row> table(String markdown, int index) {
        List<List<Row>> tables = tables(markdown);
        if (index < 1 || index > tables.size()) {
            throw new IllegalArgumentException("no results table " + index + ": the text has " + tables.size());
        }
        return tables.get(index - 1);
    }

    private static boolean isResultsHeader(List<String> cells) {
        return cells.size() >= 5 && cells.get(0).equals("scenario") && cells.get(1).equals("configuration")
            && cells.contains("rows/s");
    }

    private static Row row(List<String> header, List<String> cells) {
        return new Row(cell(header, cells, "scenario"), cell(header, cells, "configuration"),
            number(cell(header, cells, "rows/s")), cpu(cell(header, cells, "CPU us/row (JVM (JIT) / PG)")),
            cell(header, cells, "notes"));
    }

    private static String cell(List<String> header, List<String> cells, String name) {
        int index = header.indexOf(name);
        return index >= 0 && index < cells.size() ? cells.get(index) : "";
    }

    private static OptionalDouble number(String text) {
        String digits = text.replace(",", "");
        if (!digits.matches("[0-9]+(\\.[0-9]+)?")) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Double.parseDouble(digits));
    }

    private static Optional<Cpu> cpu(String text) {
        Matcher m = CPU.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Cpu(parse(m.group(1)), parse(m.group(2)), parse(m.group(3))));
    }

    /** The CPU per row by role in {@code notes}, as {@link Row#cpuByRole()} describes it. */
    static Optional<Map<String, Double>> cpuByRole(String notes) {
        int first = -1;
        int start = -1;
        for (String phrase : BY_ROLE) {
            int at = notes.indexOf(phrase);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
                start = at + phrase.length();
            }
        }
        if (first < 0) {
            return Optional.empty();
        }
        int end = notes.indexOf(';', start);
        String list = notes.substring(start, end < 0 ? notes.length() : end).strip();
        Map<String, Double> roles = new LinkedHashMap<>();
        for (String entry : list.split(", ")) {
            Matcher m = ROLE.matcher(entry.strip());
            if (!m.matches()) {
                return Optional.empty();
            }
            roles.merge(m.group(1), parse(m.group(2)), Double::sum);
        }
        return Optional.of(Collections.unmodifiableMap(roles));
    }

    private static double parse(String digits) {
        return Double.parseDouble(digits.replace(",", ""));
    }

    /** The cells of a table line, trimmed; a line {@code | a | b |} gives {@code [a, b]}. */
    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") && line.length() > 1 ? line.length() - 1 : line.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }
}
