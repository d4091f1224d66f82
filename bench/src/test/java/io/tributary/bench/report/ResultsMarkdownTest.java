package io.tributary.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.bench.pipeline.ResultTable;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.PeakRss;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsMarkdownTest {

    private static String benchTable() {
        ResultTable table = new ResultTable();
        table.addBaseline(ResultTable.Row.ok("B1 sequential snapshot", "keyset", 1_000, 2.0, ""));
        table.add(ResultTable.Row.ok("A snapshot to first checkpoint", "w=2", 1_000, 0.5, "x")
            .withUsage(new PeakRss(2048, 1024), new CpuUse(1.2, 0.05, 0.1)));
        table.add(ResultTable.Row.failed("A snapshot to first checkpoint", "w=4", 0, 300.0, "TIMEOUT"));
        return table.markdown();
    }

    @Test
    void readsTheTableTheBenchWrites() {
        List<ResultsMarkdown.Row> rows = ResultsMarkdown.table("# Bench\n\ntext\n\n" + benchTable(), 1);

        assertEquals(3, rows.size());
        assertEquals("B1 sequential snapshot", rows.get(0).scenario());
        assertEquals(500.0, rows.get(0).rowsPerSecond().getAsDouble());
        assertEquals(Optional.empty(), rows.get(0).cpu());
        assertEquals(2_000.0, rows.get(1).rowsPerSecond().getAsDouble());
        assertEquals(new ResultsMarkdown.Cpu(1_200, 50, 100), rows.get(1).cpu().orElseThrow());
        assertTrue(rows.get(2).rowsPerSecond().isEmpty());
    }

    @Test
    void findsEveryResultsTableAndSkipsOtherTables() {
        String text = "| statement | us/row |\n| --- | ---: |\n| COPY | 8.3 |\n\n" + benchTable()
            + "\nprose\n\n| scenario | configuration | rows | seconds | rows/s | vs baseline | notes |\n"
            + "| --- | --- | ---: | ---: | ---: | ---: | --- |\n| C | replay | 200,000 | 9.07 | 22,051 | 0.13x | |\n";

        List<List<ResultsMarkdown.Row>> tables = ResultsMarkdown.tables(text);

        assertEquals(2, tables.size());
        assertEquals(22_051.0, tables.get(1).get(0).rowsPerSecond().getAsDouble());
        assertEquals(Optional.empty(), tables.get(1).get(0).cpu());
        assertThrows(IllegalArgumentException.class, () -> ResultsMarkdown.table(text, 3));
    }

    @Test
    void rowsOfOneScenarioAreToldApartByWhatDiffersInTheirConfigurations() {
        List<ResultsMarkdown.Row> rows = ResultsMarkdown.table(benchTable(), 1);

        assertEquals("keyset", BenchCharts.detail(rows.get(0), rows));
        assertEquals("w=2", BenchCharts.detail(rows.get(1), rows));
        ResultsMarkdown.Row w1 = new ResultsMarkdown.Row("W", "replay, 1 loop, old jar", OptionalDouble.empty(),
            Optional.empty(), "");
        ResultsMarkdown.Row w2 = new ResultsMarkdown.Row("W", "replay, 1 loop", OptionalDouble.empty(),
            Optional.empty(), "");
        ResultsMarkdown.Row w3 = new ResultsMarkdown.Row("W", "replay, 2 loops", OptionalDouble.empty(),
            Optional.empty(), "");
        List<ResultsMarkdown.Row> ws = List.of(w1, w2, w3);
        assertEquals("1 loop, old jar", BenchCharts.detail(w1, ws));
        assertEquals("1 loop", BenchCharts.detail(w2, ws));
        assertEquals("2 loops", BenchCharts.detail(w3, ws));
    }

    @Test
    void writesBothChartsBesideAResultsFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("20261202-184536.md");
        Files.writeString(file, "# Bench\n\n" + benchTable(), StandardCharsets.UTF_8);

        List<Path> written = BenchCharts.writeBeside(file);

        assertEquals(List.of(dir.resolve("20261202-184536-rate.svg"), dir.resolve("20261202-184536-cpu.svg")),
            written);
        String cpu = Files.readString(written.get(1), StandardCharsets.UTF_8);
        assertTrue(cpu.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), cpu);
        assertTrue(cpu.contains("JIT compiler threads"), cpu);
        assertTrue(Files.readString(written.get(0), StandardCharsets.UTF_8).contains("no rate"));
    }

    @Test
    void renderChartsTakesTheTableAndTheNames(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("page.md");
        Files.writeString(file, benchTable() + "\n" + benchTable(), StandardCharsets.UTF_8);
        Path out = dir.resolve("images");

        int code = RenderCharts.run(new String[] {file.toString(), "--table", "2", "--out", out.toString(),
            "--name", "pipeline"});

        assertEquals(0, code);
        assertTrue(Files.exists(out.resolve("pipeline-rate.svg")));
        assertTrue(Files.exists(out.resolve("pipeline-cpu.svg")));
        assertEquals(2, RenderCharts.run(new String[] {file.toString(), "--table", "3"}));
        assertEquals(2, RenderCharts.run(new String[] {}));
    }
}
