package io.tributary.bench;

import io.tributary.bench.pipeline.Baselines;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.embedded.EmbeddedKafka;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.postgres.PgEndpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark harness: sets up its own data on an embedded Kafka broker and one embedded Postgres (a source
 * database and one storage database per pipeline run), measures the baselines and the full pipeline on the same
 * data in the same run, prints one markdown table and writes it to {@code bench-results/<timestamp>.md}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Snapshot, baseline and re-replication throughput of the whole pipeline, in one table.")
public final class Bench implements Callable<Integer> {

    @Option(names = "--rows", defaultValue = "200000",
        description = "rows of the ~500 B-row table (default ${DEFAULT-VALUE})")
    private long rows;

    @Option(names = "--workers", split = ",", defaultValue = "1,2,4",
        description = "replication.workers_per_process values for scenario A (default ${DEFAULT-VALUE})")
    private List<Integer> workers;

    @Option(names = "--timeout-seconds", defaultValue = "600",
        description = "per pipeline run (default ${DEFAULT-VALUE})")
    private long timeoutSeconds;

    @Option(names = "--skip-replay", description = "skip scenario C (re-replication)")
    private boolean skipReplay;

    @Option(names = "--skip-streaming", description = "skip scenario D (streaming catch-up of a WAL backlog)")
    private boolean skipStreaming;

    @Option(names = "--hot-rows", defaultValue = "10000",
        description = "rows of scenario D's table, each updated --hot-updates times (default ${DEFAULT-VALUE})")
    private int hotRows;

    @Option(names = "--hot-updates", defaultValue = "100", description = "(default ${DEFAULT-VALUE})")
    private int hotUpdates;

    @Option(names = "--out", defaultValue = "bench-results", description = "folder of the result file")
    private Path outDirectory;

    public static void main(String[] args) {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        System.exit(new CommandLine(new Bench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        ResultTable table = new ResultTable();
        Path work = Files.createTempDirectory("tributary-bench");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
            postgres.createDatabase("source");
            PgEndpoint source = new PgEndpoint(postgres.jdbcUrl("source"), postgres.superuser(), "");
            long loadStart = System.nanoTime();
            try (Connection c = source.connect()) {
                Dataset.load(c, rows);
            }
            log("loaded %,d rows (%s) in %.1f s", rows, tableSize(source), (System.nanoTime() - loadStart) / 1e9);
            Baselines.copyOut(source);

            Baselines.Measured keyset = Baselines.keysetRead(source);
            table.addBaseline(Row.ok("B1 sequential snapshot", "1 connection, keyset chunks of 20k, columns as text",
                keyset.rows(), keyset.seconds(), "baseline: the field's default"));
            Baselines.Measured out = Baselines.copyOut(source);
            table.add(Row.ok("B2 ceiling: COPY out", "COPY (SELECT *) TO STDOUT, 1 connection", out.rows(),
                out.seconds(), ""));
            postgres.createDatabase("ceiling");
            Baselines.Measured in = Baselines.copyIntoBucketData(
                new PgEndpoint(postgres.jdbcUrl("ceiling"), postgres.superuser(), ""), rows);
            table.add(Row.ok("B3 ceiling: COPY into bucket_data", "1 connection, 5k rows per transaction", in.rows(),
                in.seconds(), ""));
            log("baselines done");

            Path rulesV1 = work.resolve("rules-v1.yaml");
            Files.writeString(rulesV1, Dataset.syncRules(1));
            PipelineRun.Settings last = null;
            for (int w : workers) {
                String name = "bench_a_w" + w;
                postgres.createDatabase("storage_" + name);
                PipelineRun.Settings settings = new PipelineRun.Settings(name, kafka.bootstrapServers(),
                    postgres.jdbcUrl("source"), postgres.jdbcUrl("storage_" + name), postgres.superuser(), rulesV1, w);
                log("scenario A, workers_per_process %d ...", w);
                PipelineRun.Outcome outcome = PipelineRun.run(settings, Duration.ofSeconds(timeoutSeconds));
                keepLog(started, name, outcome);
                table.add(pipelineRow("A snapshot to first checkpoint", "full pipeline, workers_per_process " + w,
                    outcome, settings));
                if (last != null) {
                    dropSlot(source, last.name());
                }
                last = settings;
            }

            if (!skipReplay && last != null) {
                Path rulesV2 = work.resolve("rules-v2.yaml");
                Files.writeString(rulesV2, Dataset.syncRules(2));
                PipelineRun.Settings replay = new PipelineRun.Settings(last.name(), last.kafka(), last.sourceUrl(),
                    last.storageUrl(), last.user(), rulesV2, last.workersPerProcess());
                long readBefore = tuplesRead(source);
                log("scenario C, re-replication ...");
                PipelineRun.Outcome outcome = PipelineRun.run(replay, Duration.ofSeconds(timeoutSeconds));
                long sourceRead = tuplesRead(source) - readBefore;
                keepLog(started, last.name() + "_replay", outcome);
                Row row = pipelineRow("C re-replication to ACTIVE", "new sync rules version, replay of "
                    + last.name() + ".rows", outcome, replay);
                table.add(new Row(row.scenario(), row.configuration(), row.rows(), row.seconds(), row.outcome(),
                    "source tuples read: " + sourceRead + "; " + row.notes()));
            }
            if (last != null) {
                dropSlot(source, last.name());
            }
            if (!skipStreaming) {
                try {
                    StreamingCatchUp.run(postgres, kafka.bootstrapServers(), rulesV1, hotRows, hotUpdates,
                        Duration.ofSeconds(timeoutSeconds), table, (name, outcome) -> keepLog(started, name, outcome));
                } catch (Exception e) {
                    log("scenario D failed: %s", e);
                    table.add(Row.failed("D streaming catch-up", "set-up", 0, 0, "FAILED: " + e));
                }
            }
        }
        String markdown = table.markdown();
        System.out.println();
        System.out.print(markdown);
        Files.createDirectories(outDirectory);
        Path file = outDirectory.resolve(started + ".md");
        Files.writeString(file, String.format(Locale.ROOT, "# Bench %s%n%n%d cores, %,d MB max heap, rows=%d,"
                + " workers=%s; embedded Kafka and Postgres on the same machine%n%n%s", started,
            Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, rows, workers,
            markdown), StandardCharsets.UTF_8);
        log("written to %s", file);
        return 0;
    }

    /**
     * The row of a pipeline run: seconds from the launcher call to the newest group's ACTIVE transition (its first
     * complete checkpoint, as storage recorded it), with the time to caught-up and the launcher's own figure in
     * the notes.
     */
    private Row pipelineRow(String scenario, String configuration, PipelineRun.Outcome outcome,
                            PipelineRun.Settings settings) throws SQLException {
        Optional<Long> activeAt = activeAtMillis(settings.storageUrl(), settings.user());
        if (outcome.exitCode() == 0 && outcome.summary().isPresent() && activeAt.isPresent()) {
            double seconds = (activeAt.get() - outcome.startedAtMillis()) / 1000.0;
            return Row.ok(scenario, configuration, rows, seconds, String.format(Locale.ROOT,
                "caught up (checkpoint past the WAL end) at %.1f s; %s", outcome.wallSeconds(),
                launcherNote(outcome)));
        }
        String what = outcome.exitCode() == -1 ? "TIMEOUT" : "FAILED (exit " + outcome.exitCode() + ")";
        log("%s %s: %s%n%s", scenario, what, configuration, outcome.output());
        return Row.failed(scenario, configuration, rows, outcome.wallSeconds(), what + ": " + outcome.tail());
    }

    private static String launcherNote(PipelineRun.Outcome outcome) {
        return outcome.launcherSeconds().map(s -> String.format(Locale.ROOT,
            "launcher's own clock (after start-up): %.1f s = %,.0f rows/s", s,
            outcome.rowsSnapshotted().orElse(0L) / s))
            .orElse("no launcher summary");
    }

    /** Keeps the launcher's output of a run next to the result file. */
    void keepLog(String started, String name, PipelineRun.Outcome outcome) throws IOException {
        Files.createDirectories(outDirectory);
        Files.writeString(outDirectory.resolve(started + "-" + name + ".log"), outcome.output());
    }

    /** When the newest sync rules group became ACTIVE, in epoch milliseconds of the (local) storage server. */
    private static Optional<Long> activeAtMillis(String storageUrl, String user) throws SQLException {
        try (Connection c = new PgEndpoint(storageUrl, user, "").connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT state, (extract(epoch FROM state_changed_at) * 1000)::bigint"
                 + " FROM tributary.sync_rules ORDER BY group_id DESC LIMIT 1")) {
            if (rs.next() && "ACTIVE".equals(rs.getString(1))) {
                return Optional.of(rs.getLong(2));
            }
            return Optional.empty();
        }
    }

    private static String tableSize(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_size_pretty(pg_table_size('" + Dataset.TABLE + "'))")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Heap tuples read from the items table so far (sequential and index fetches), as the statistics show. */
    private static long tuplesRead(PgEndpoint source) throws SQLException {
        LockSupport.parkNanos(Duration.ofMillis(1500).toNanos());
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
                 + " FROM pg_stat_user_tables WHERE relid = '" + Dataset.TABLE + "'::regclass")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Drops a finished run's replication slot so its WAL is not retained for the next runs. */
    static void dropSlot(PgEndpoint source, String slot) {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                + slot + "' AND NOT active");
        } catch (SQLException e) {
            log("could not drop slot %s: %s", slot, e.getMessage());
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
