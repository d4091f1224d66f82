package io.tributary.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CPU per row by role: read from the notes of real results rows, and charted. */
class CpuByRoleTest {

    /** The header every results table of docs/results has. */
    private static final String HEADER =
        "| scenario | configuration | rows | seconds | rows/s | vs baseline | peak RSS MiB (JVM / PG) | CPU us/row "
        + "(JVM (JIT) / PG) | notes |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";

    /** A baseline row without a breakdown (docs/results/pipeline-quiet-20261203-161858.md). */
    private static final String B1 =
        "| B1 sequential snapshot | 1 connection, keyset chunks of 20k, columns as text | 200,000 | 0.50 | 396,539 "
        + "| 1.00x | 381 / 125 | 4 (JIT 2) / 1 | baseline: the field's default |\n";

    /** A pipeline row, CPU by role of 8 roles (docs/results/pipeline-quiet-20261203-161858.md). */
    private static final String A_QUIET =
        "| A snapshot to first checkpoint | full pipeline, workers_per_process 2 | 200,000 | 11.03 | 18,137 | "
        + "0.05x | 2,351 / 283 | 122 (JIT 43) / 15 | 55.1 us/row; chunks all read at 6 s (launcher's clock); CPU "
        + "us/row by role: ingest/planner 3.0, snapshot-workers 7.5, stream-workers 14.2, storage-writer 15.3, Kafka "
        + "broker 17.1, other 7.8, source Postgres 2.2, storage Postgres 10.7; storage checked: 200,000 rows = "
        + "source, checksums recomputed; caught up (checkpoint past the WAL end) at 12.7 s; launcher's own clock "
        + "(after start-up): 8.7 s = 22,989 rows/s |\n";

    /** A pipeline row, 10 roles, notes go on (snapshot-path-main-1m-active-window-20261206-014637.md). */
    private static final String A_ACTIVE =
        "| A snapshot to first checkpoint | full pipeline, workers_per_process 2 | 1,000,000 | 455.70 | 2,194 | - "
        + "| 4,434 / 684 | 96 (JIT 15) / 27 | 455.7 us/row; chunks all read at 264 s (launcher's clock); CPU us/row "
        + "by role: ingest/planner 3.8, snapshot-workers 6.7, stream-workers 9.7, storage-writer 16.4, Kafka broker "
        + "27.1, bench probes 3.8, other 5.6, GC and JVM threads 8.0, source Postgres 3.5, storage Postgres 23.3; "
        + "broker requests per 1,000 rows: Heartbeat 4.23, Produce 3.29, AddPartitionsToTxn 1.63, FetchConsumer "
        + "1.15, Fetch 1.15, EndTxn 0.68, ListOffsets 0.66, WriteTxnMarkers 0.64; CPU from the launcher call to "
        + "ACTIVE; storage checked: 1,000,000 rows = source, checksums recomputed; caught up (checkpoint past the "
        + "WAL end) at 465.3 s; launcher's own clock (after start-up): 412.3 s = 2,425 rows/s |\n";

    /** A roles-as-processes row, JIT apart in parentheses (docs/results/processes-20261206-024955.md). */
    private static final String P =
        "| P roles as processes: snapshot to first checkpoint | ingest, replication:snapshot, "
        + "replication:streaming, storage, api as 5 JVMs, workers_per_process 2, JVM options '-Xmx1g' | 200,000 | "
        + "278.98 | 717 | - | 1,400 / 420 | 297 (JIT 88) / 78 | storage checked: 200,000 rows = source, checksums "
        + "recomputed; CPU us/row outside the JIT by process: ingest/planner 26.2 (JIT 18.3), snapshot-workers 28.2 "
        + "(JIT 22.3), stream-workers 35.1 (JIT 22.6), storage-writer 50.7 (JIT 20.7), api 7.4 (JIT 4.3), Kafka "
        + "broker 61.5, source Postgres 11.5, storage Postgres 66.3; total 279.5 us/row; model: 2 cores / 279.5 us = "
        + "7,155 rows/s, achieved 717 (0.10x of the model; the model's roles used 0.20 cores on average outside the "
        + "JIT); for 100,000,000 rows in 3600 s on 4-core processes at 70%: 8 partitions, first to saturate storage "
        + "Postgres (42,264 rows/s) |\n";

    /** Notes splitting ms per table, not CPU per row, by role (tenants-shapes-before-20261206-013409.md). */
    private static final String M_FIXED =
        "| M fixed CPU per table | 200 x 5 against 1 x 5 | 0 | 0.00 | ok | - | - | - | 6.17 ms of CPU per table "
        + "(200 x 5 vs 1 x 5 tables, workers_per_process 2); ms per table by role: ingest/planner 0.27, "
        + "snapshot-workers -0.30, stream-workers 0.74, storage-writer -0.80, Kafka broker -1.84, GC 0.00, other "
        + "-1.93, source Postgres 6.74, storage Postgres 3.29 |\n";

    private static ResultsMarkdown.Row only(String line) {
        List<ResultsMarkdown.Row> rows = ResultsMarkdown.table(HEADER + line, 1);
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    private static ResultsMarkdown.Row noted(String scenario, String notes) {
        return new ResultsMarkdown.Row(scenario, "c", OptionalDouble.empty(), Optional.empty(), notes);
    }

    @Test
    void readsThePipelinesListOfRoles() {
        ResultsMarkdown.Row row = only(A_QUIET);

        assertThat(row.notes()).startsWith("55.1 us/row; chunks all read at 6 s");
        assertThat(row.cpuByRole()).hasValueSatisfying(roles -> assertThat(roles).containsExactly(
            entry("ingest/planner", 3.0), entry("snapshot-workers", 7.5), entry("stream-workers", 14.2),
            entry("storage-writer", 15.3), entry("Kafka broker", 17.1), entry("other", 7.8),
            entry("source Postgres", 2.2), entry("storage Postgres", 10.7)));
    }

    @Test
    void theListEndsAtItsSemicolon() {
        assertThat(only(A_ACTIVE).cpuByRole()).hasValueSatisfying(roles -> assertThat(roles).containsExactly(
            entry("ingest/planner", 3.8), entry("snapshot-workers", 6.7), entry("stream-workers", 9.7),
            entry("storage-writer", 16.4), entry("Kafka broker", 27.1), entry("bench probes", 3.8),
            entry("other", 5.6), entry("GC and JVM threads", 8.0), entry("source Postgres", 3.5),
            entry("storage Postgres", 23.3)));
    }

    @Test
    void readsTheProcessesListTakingTheFigureBeforeTheJit() {
        assertThat(only(P).cpuByRole()).hasValueSatisfying(roles -> assertThat(roles).containsExactly(
            entry("ingest/planner", 26.2), entry("snapshot-workers", 28.2), entry("stream-workers", 35.1),
            entry("storage-writer", 50.7), entry("api", 7.4), entry("Kafka broker", 61.5),
            entry("source Postgres", 11.5), entry("storage Postgres", 66.3)));
    }

    @Test
    void rowsWithoutABreakdownHaveNone() {
        assertThat(only(B1).cpuByRole()).isEmpty();
        assertThat(only(M_FIXED).cpuByRole()).as("ms per table is not CPU per row").isEmpty();
        assertThat(noted("x", "").cpuByRole()).isEmpty();
        assertThat(noted("x", "CPU us/row by role: ; later").cpuByRole()).isEmpty();
        assertThat(noted("x", "CPU us/row by role: ingest/planner fast, other 2.0").cpuByRole()).isEmpty();
        ResultsMarkdown.Row noNotes = ResultsMarkdown.table("| scenario | configuration | rows | seconds | rows/s |\n"
            + "| --- | --- | ---: | ---: | ---: |\n| C | replay | 200,000 | 9.07 | 22,051 |\n", 1).get(0);
        assertThat(noNotes.notes()).isEmpty();
        assertThat(noNotes.cpuByRole()).isEmpty();
    }

    @Test
    void figuresMayHaveThousandsSeparatorsOrGoBelowZero() {
        assertThat(noted("x", "total 9; CPU us/row by role: Kafka broker 1,203.6, GC and JVM threads -0.4, other 12")
            .cpuByRole()).hasValueSatisfying(roles -> assertThat(roles).containsExactly(
                entry("Kafka broker", 1_203.6), entry("GC and JVM threads", -0.4), entry("other", 12.0)));
        assertThat(noted("x", "CPU us/row outside the JIT by process: storage-writer 2,050.7 (JIT 1,020.7)")
            .cpuByRole()).hasValueSatisfying(roles -> assertThat(roles).containsExactly(
                entry("storage-writer", 2_050.7)));
    }

    @Test
    void writeDrawsARolesChartOfTheRowsWithABreakdown(@TempDir Path dir) throws Exception {
        List<ResultsMarkdown.Row> rows = ResultsMarkdown.table(HEADER + B1 + A_QUIET + A_ACTIVE + P + M_FIXED, 1);

        List<Path> written = BenchCharts.write(dir, "run", "Run", rows);

        assertThat(written).containsExactly(dir.resolve("run-rate.svg"), dir.resolve("run-cpu.svg"),
            dir.resolve("run-roles.svg"));
        String svg = Files.readString(written.get(2), StandardCharsets.UTF_8);
        assertThat(svg).contains("Run: CPU per row by role", "microseconds of CPU per row");
        for (String role : List.of("ingest/planner", "snapshot-workers", "stream-workers", "storage-writer",
                "Kafka broker", "bench probes", "other", "GC and JVM threads", "source Postgres", "storage Postgres",
                "api")) {
            assertThat(svg).contains(">" + role + "</text>", "<title>" + role + ": ");
        }
        assertThat(svg).contains("A snapshot to first checkpoint", "P roles as processes")
            .doesNotContain("B1 sequential snapshot", "M fixed CPU per table");
        assertThat(svg.split("<title>api: ", -1)).as("a segment per bar").hasSize(4);
        assertThat(svg).contains("<title>api: 0</title>", "<title>api: 7.4</title>",
            "<title>bench probes: 0</title>");
    }

    @Test
    void theRolesAreTheSeriesInTheOrderTheyFirstAppear() {
        SvgBarChart chart = BenchCharts.roles("t", List.of(noted("A", "CPU us/row by role: a 1.0, b 2.0"),
            noted("B", "no breakdown"), noted("C", "CPU us/row outside the JIT by process: c 3.0 (JIT 1.0), a 4.0")));

        assertThat(chart.title()).isEqualTo("t: CPU per row by role");
        assertThat(chart.unit()).isEqualTo("microseconds of CPU per row");
        assertThat(chart.series()).containsExactly("a", "b", "c");
        assertThat(chart.bars()).extracting(SvgBarChart.Bar::label).containsExactly("A", "C");
        assertThat(chart.bars()).extracting(SvgBarChart.Bar::values)
            .containsExactly(List.of(1.0, 2.0, 0.0), List.of(4.0, 0.0, 3.0));
    }

    @Test
    void negativeFiguresStackZeroAndRolesBeyondThePaletteAreSummed() {
        List<String> entries = new ArrayList<>();
        for (int i = 1; i <= SvgBarChart.MAX_SERIES + 2; i++) {
            entries.add("role" + i + " " + i + ".0");
        }
        SvgBarChart chart = BenchCharts.roles("t", List.of(
            noted("A", "CPU us/row by role: " + String.join(", ", entries)),
            noted("B", "CPU us/row by role: role1 -0.5, role2 2.0")));

        assertThat(chart.series()).hasSize(SvgBarChart.MAX_SERIES).startsWith("role1", "role2")
            .endsWith("role11", "other roles");
        assertThat(chart.bars().get(0).values().get(SvgBarChart.MAX_SERIES - 1)).isEqualTo(12.0 + 13 + 14);
        assertThat(chart.bars().get(0).total()).isEqualTo(105.0);
        assertThat(chart.bars().get(1).values().subList(0, 3)).containsExactly(0.0, 2.0, 0.0);
        assertThat(chart.svg()).contains(">other roles</text>");
    }

    @Test
    void noBreakdownNoRolesChart(@TempDir Path dir) throws Exception {
        List<ResultsMarkdown.Row> rows = ResultsMarkdown.table(HEADER + B1 + M_FIXED, 1);

        assertThat(BenchCharts.write(dir, "run", "Run", rows)).containsExactly(dir.resolve("run-rate.svg"),
            dir.resolve("run-cpu.svg"));
        assertThat(dir.resolve("run-roles.svg")).doesNotExist();
        assertThat(BenchCharts.roles("t", rows).bars()).isEmpty();
    }

    @Test
    void renderChartsDrawsTheRolesOfARealFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("processes.md");
        Files.writeString(file, "# Bench\n\n" + HEADER + P, StandardCharsets.UTF_8);

        assertThat(RenderCharts.run(new String[] {file.toString(), "--name", "check"})).isZero();

        assertThat(Files.readString(dir.resolve("check-roles.svg"), StandardCharsets.UTF_8))
            .contains("check: CPU per row by role", ">api</text>", ">storage Postgres</text>");
    }
}
