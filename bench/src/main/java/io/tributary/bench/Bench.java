package io.tributary.bench;

import io.tributary.bench.classic.BloatedTable;
import io.tributary.bench.classic.Linearity;
import io.tributary.bench.classic.StreamingCatchUp;
import io.tributary.bench.debezium.DebeziumSnapshot;
import io.tributary.bench.direct.DirectSeries;
import io.tributary.bench.initial.InitialSync;
import io.tributary.bench.load.ConcurrentStreams;
import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.MemoryProbe;
import io.tributary.bench.probe.ServerProcesses;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Baselines;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.Replay;
import io.tributary.bench.pipeline.ResultTable;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.bench.processes.MultiProcess;
import io.tributary.bench.remote.RemoteSource;
import io.tributary.bench.report.BenchCharts;
import io.tributary.bench.streaming.SustainedStreaming;
import io.tributary.bench.tenants.MultiTenant;
import io.tributary.bench.tpcb.NewGroupUnderLoad;
import io.tributary.bench.tpcb.TpcbSchema;
import io.tributary.bench.writer.WriterAloneRun;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The benchmark harness: sets up its own data on an embedded Kafka broker and two embedded Postgres servers (one
 * for the source databases, one for the storage database of each pipeline run), measures the baselines and the
 * full pipeline on the same data in the same run, prints one markdown table and writes it to
 * {@code bench-results/<timestamp>.md}, with its charts beside it ({@link BenchCharts}).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Snapshot, baseline, re-replication and streaming figures of the whole pipeline, in one table.")
public final class Bench implements Callable<Integer> {

    @Option(names = "--rows", defaultValue = "200000",
        description = "rows of the ~500 B-row table of B, A, C, R and DBZ; total rows of M (default ${DEFAULT-VALUE})")
    private long rows;

    @Option(names = "--row-body", defaultValue = "REPEATED",
        description = "body of those rows: REPEATED (one MD5 13 times, shrinks ~8x under lz4) or DISTINCT (13"
            + " different MD5s, barely shrinks; default ${DEFAULT-VALUE})")
    private Dataset.Body rowBody;

    @Option(names = "--workers", split = ",", defaultValue = "1,2,4",
        description = "replication.workers_per_process values of A, R and M (default ${DEFAULT-VALUE})")
    private List<Integer> workers;

    @Option(names = "--writer-loops", split = ",", defaultValue = "1,2",
        description = "writer loops of W, the storage writer alone (default ${DEFAULT-VALUE})")
    private List<Integer> writerLoops;

    @Option(names = "--writer-batch", defaultValue = "5000",
        description = "records per partition batch of W (storage.batch_rows; default ${DEFAULT-VALUE})")
    private int writerBatch;

    @Option(names = "--only", split = ",", paramLabel = "SCENARIO",
        description = "run only these scenarios (default all): B|baselines, A|snapshot, C|replay, W|writer, X|direct,"
            + " DBZ|debezium, R|remote, M|tenants, E|bloated, L|linearity, D|catch-up, S|streaming, N|streams,"
            + " I|initial-sync, T|tpcb")
    private List<String> only = List.of();

    @Option(names = "--repeat", defaultValue = "1",
        description = "runs per configuration; the row reports the median (default ${DEFAULT-VALUE})")
    private int repeat;

    @Option(names = "--timeout-seconds", defaultValue = "600",
        description = "per pipeline run (default ${DEFAULT-VALUE})")
    private long timeoutSeconds;

    @Option(names = "--warm-up", description = "before A, snapshot the same table once more in the same JVM (row A0),"
        + " so that A and the replay after it both run on compiled code; A0 keeps the cold figures")
    private boolean warmUp;

    @Option(names = "--skip-replay", description = "skip re-replication (C and E2)")
    private boolean skipReplay;

    @Option(names = "--skip-streaming", description = "skip D (streaming catch-up) and S (sustained streaming, lag)")
    private boolean skipStreaming;

    @Option(names = "--hot-rows", defaultValue = "10000",
        description = "rows of the classic dataset (D, E, S), each updated --hot-updates times"
            + " (default ${DEFAULT-VALUE})")
    private int hotRows;

    @Option(names = "--hot-updates", defaultValue = "100", description = "(default ${DEFAULT-VALUE})")
    private int hotUpdates;

    @Option(names = "--hot-passes", defaultValue = "2",
        description = "passes of S1 through one running pipeline, each committing --hot-rows x --hot-updates"
            + " changes; the first (cold) and the last are recorded (default ${DEFAULT-VALUE}, at least 2)")
    private int hotPasses;

    @Option(names = "--linearity-rows", split = ",", defaultValue = "10000,100000,1000000",
        description = "table sizes of L (default ${DEFAULT-VALUE})")
    private List<Long> linearityRows;

    @Option(names = "--tenants", split = ",", defaultValue = "200",
        description = "schemas of M, one run per value; with several, M adds the fixed CPU per table against the"
            + " first (e.g. 1,200,2000; default ${DEFAULT-VALUE})")
    private List<Integer> tenants;

    @Option(names = "--pg-statements",
        description = "start both Postgres servers with pg_stat_statements; M writes each run's top statements next to"
            + " the result file")
    private boolean pgStatements;

    @Option(names = "--tenant-tables", defaultValue = "5", description = "tables per schema (default ${DEFAULT-VALUE})")
    private int tenantTables;

    @Option(names = "--process-java-opts", defaultValue = "-Xmx1g",
        description = "JVM options of each role's process in P (default ${DEFAULT-VALUE})")
    private String processJavaOptions;

    @Option(names = "--latency-ms", defaultValue = "2",
        description = "one-way latency R's proxy adds per forwarded chunk (default ${DEFAULT-VALUE})")
    private long latencyMillis;

    @Option(names = "--source-mbps", defaultValue = "0",
        description = "bandwidth cap of R's proxy, MB/s per connection and direction; 0 = none"
            + " (default ${DEFAULT-VALUE})")
    private double sourceMbps;

    @Option(names = "--chunk-rows", defaultValue = "20000",
        description = "replication.snapshot.chunk_rows of every pipeline run and the direct path's chunk"
            + " (default ${DEFAULT-VALUE})")
    private int chunkRows;

    @Option(names = "--debezium-threads", split = ",", defaultValue = "1,4",
        description = "snapshot.max.threads values of DBZ (default ${DEFAULT-VALUE})")
    private List<Integer> debeziumThreads;

    @Option(names = "--lag-rate", defaultValue = "5000", description = "changes/s of S2 (default ${DEFAULT-VALUE})")
    private int lagRate;

    @Option(names = "--lag-seconds", defaultValue = "20", description = "duration of S2 (default ${DEFAULT-VALUE})")
    private int lagSeconds;

    @Option(names = "--lag-transaction-rows", defaultValue = "25",
        description = "rows per transaction of S2 (default ${DEFAULT-VALUE})")
    private int lagTransactionRows;

    @Option(names = "--streams", split = ",", defaultValue = "1000,5000,10000",
        description = "concurrent sync stream counts of N (default ${DEFAULT-VALUE})")
    private List<Integer> streams;

    @Option(names = "--stream-rows", defaultValue = "100000",
        description = "rows of N's table, half of them in one user's bucket (default ${DEFAULT-VALUE})")
    private long streamRows;

    @Option(names = "--stream-wave", defaultValue = "100",
        description = "streams N opens at once (default ${DEFAULT-VALUE})")
    private int streamWave;

    @Option(names = "--initial-sizes", split = ",", defaultValue = "10000x100,100000x10,1000000x1",
        description = "sizes of I, ROWSxUPDATES: rows all in one user's bucket, each updated UPDATES times"
            + " (default ${DEFAULT-VALUE})")
    private List<String> initialSizes;

    @Option(names = "--initial-load", defaultValue = "pipeline",
        description = "how I fills storage: pipeline (snapshot, updates, catch-up) or direct (the rules over each"
            + " version of the rows, COPY, no Kafka: for a machine too busy for millions of changes)"
            + " (default ${DEFAULT-VALUE})")
    private String initialLoad;

    @Option(names = "--initial-client", defaultValue = "native",
        description = "the SQLite of I's client: native (better-sqlite3, built from source by npm ci when no"
            + " prebuilt binary is reachable) or sql-js (SQLite compiled to JavaScript) (default ${DEFAULT-VALUE})")
    private String initialClient;

    @Option(names = "--tpcb-accounts", defaultValue = "300000",
        description = "accounts of T's TPC-B tables (a branch per 100,000, 10 tellers per branch;"
            + " default ${DEFAULT-VALUE})")
    private long tpcbAccounts;

    @Option(names = "--tpcb-clients", defaultValue = "4", description = "T2's TPC-B clients (default ${DEFAULT-VALUE})")
    private int tpcbClients;

    @Option(names = "--tpcb-tps", defaultValue = "250",
        description = "T2's TPC-B transactions/s over all clients (default ${DEFAULT-VALUE})")
    private int tpcbTps;

    @Option(names = "--out", defaultValue = "bench-results", description = "folder of the result file")
    private Path outDirectory;

    public static void main(String[] args) {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "io/tributary/bench/logback-bench.xml");
        }
        System.exit(new CommandLine(new Bench()).execute(args));
    }

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (new HashSet<>(workers).size() != workers.size()) {
            throw new ParameterException(spec.commandLine(), "--workers lists a value more than once (" + workers
                + "): each value names its runs and their databases and topics (bench_a_w<n>), so give each once;"
                + " --repeat runs each configuration several times");
        }
        if (hotPasses < 2) {
            throw new ParameterException(spec.commandLine(), "--hot-passes must be at least 2 (S1's cold pass and"
                + " the warm one it reports), got " + hotPasses);
        }
        Set<Scenario> selected = Scenario.select(only, skipReplay, skipStreaming);
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String loadBefore = loadAverage();
        ResultTable table = new ResultTable();
        Path work = Files.createTempDirectory("tributary-bench");
        Files.createDirectories(outDirectory);
        Path file = outDirectory.resolve(started + ".md");
        Map<String, String> serverConfig = pgStatements
            ? Map.of("shared_preload_libraries", "pg_stat_statements", "pg_stat_statements.track_planning", "on")
            : Map.of();
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             EmbeddedPostgres sourceServer = EmbeddedPostgres.start(Optional.empty(), serverConfig);
             EmbeddedPostgres storageServer = EmbeddedPostgres.start(Optional.empty(), serverConfig)) {
            List<Long> postmasters = postmasterPids(sourceServer, storageServer);
            try (MemoryProbe memory = MemoryProbe.start(postmasters)) {
                String header = String.format(Locale.ROOT, "Scenarios %s; rows=%d, row body=%s, workers=%s,"
                    + " repeat=%d%s", selected, rows, rowBody, workers, repeat,
                    memory.jvmPeakResettable() ? "" : "; JVM peak RSS is since JVM start (clear_refs refused)");
                BenchContext ctx = new BenchContext(kafka.bootstrapServers(), sourceServer, storageServer, work,
                    outDirectory, started, Duration.ofSeconds(timeoutSeconds), repeat, table, memory,
                    CpuProbe.of(postmasters), chunkRows,
                    () -> write(file, started, loadBefore + " before, " + loadAverage() + " now (partial)", header,
                        table));
                run(ctx, selected);
                write(file, started, loadBefore + " before, " + loadAverage() + " after", header, table);
            }
        }
        System.out.println();
        System.out.print(table.markdown());
        BenchContext.log("written to %s", file);
        return 0;
    }

    private static void write(Path file, String started, String load, String header, ResultTable table) {
        try {
            Files.writeString(file, String.format(Locale.ROOT, "# Bench %s%n%n%d cores, %,d MB max heap; embedded"
                    + " Kafka and two Postgres servers (source, storage) on the same machine; load average"
                    + " %s%n%n%s%n%n%s", started,
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, load, header,
                table.markdown()), StandardCharsets.UTF_8);
            BenchCharts.writeBeside(file);
        } catch (IOException e) {
            BenchContext.log("could not write %s or its charts: %s", file, e);
        }
    }

    private void run(BenchContext ctx, Set<Scenario> selected) throws Exception {
        Path rulesV1 = ctx.rulesFile("rules-v1", Dataset.syncRules(1));
        PgEndpoint source = ctx.database("source");
        if (selected.stream().anyMatch(s -> s.compareTo(Scenario.REMOTE) <= 0 || s == Scenario.PROCESSES)) {
            long loadStart = System.nanoTime();
            try (Connection c = source.connect()) {
                Dataset.load(c, rows, rowBody);
            }
            BenchContext.log("loaded %,d rows, %s body (%s) in %.1f s", rows, rowBody.name().toLowerCase(Locale.ROOT),
                tableSize(source),
                (System.nanoTime() - loadStart) / 1e9);
        }
        if (selected.contains(Scenario.BASELINES)) {
            Baselines.record(ctx, source, rows);
        }
        if (selected.contains(Scenario.SNAPSHOT)) {
            if (warmUp) {
                SnapshotSeries.run(ctx, "A0 snapshot to first checkpoint, JVM warm-up", "full pipeline, the bench JVM"
                    + " cold", "bench_a0", new SnapshotSeries.Source(source.jdbcUrl(), source, rulesV1, rows,
                        Optional.of(Dataset.expected(1))), List.of(workers.get(0)))
                    .ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
            }
            Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "A snapshot to first checkpoint",
                "full pipeline", "bench_a", new SnapshotSeries.Source(source.jdbcUrl(), source, rulesV1, rows,
                    Optional.of(Dataset.expected(1))),
                workers);
            if (selected.contains(Scenario.REPLAY) && last.isPresent()) {
                Replay.run(ctx, "C re-replication to ACTIVE", last.get(), source, rows, Dataset::syncRules,
                    "relid = '" + Dataset.TABLE + "'::regclass", Optional.of(Dataset.expected(1)));
            }
            if (selected.contains(Scenario.WRITER) && last.isPresent()) {
                WriterAloneRun.run(ctx, last.get(), source, rows, writerLoops, writerBatch);
            }
            last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
        }
        if (selected.contains(Scenario.DIRECT)) {
            DirectSeries.run(ctx, "X direct path: source to bucket_data", "one process, chunks of " + chunkRows
                + ", sync rules, COPY of 5k ops per transaction", "direct", source, source, workers,
                "A snapshot to first checkpoint");
        }
        if (selected.contains(Scenario.DEBEZIUM)) {
            debeziumSnapshots(ctx, "items", "items", new DebeziumSnapshot.Target(source, "public\\.items", rows));
        }
        if (selected.contains(Scenario.REMOTE)) {
            RemoteSource.Link link = new RemoteSource.Link(Duration.ofMillis(latencyMillis),
                Math.round(sourceMbps * 1_000_000));
            RemoteSource.run(ctx, source, rulesV1, rows, workers, link, selected.contains(Scenario.DIRECT));
        }
        if (selected.contains(Scenario.TENANTS)) {
            List<MultiTenant.Shape> shapes = tenants.stream()
                .map(t -> new MultiTenant.Shape(t, tenantTables, rows)).toList();
            MultiTenant.run(ctx, shapes, workers);
            if (selected.contains(Scenario.DEBEZIUM)) {
                MultiTenant.Shape last = shapes.get(shapes.size() - 1);
                debeziumSnapshots(ctx, "tenants", last.schemas() + " x " + tenantTables + " tenant tables",
                    new DebeziumSnapshot.Target(MultiTenant.database(ctx, last), MultiTenant.includeList(),
                        last.rows()));
            }
        }
        if (selected.contains(Scenario.PROCESSES)) {
            MultiProcess.run(ctx, source, rulesV1, rows, Dataset.expected(1), workers, processJavaOptions);
        }
        if (selected.contains(Scenario.BLOATED)) {
            BloatedTable.run(ctx, rulesV1, hotRows, hotUpdates, !skipReplay);
        }
        if (selected.contains(Scenario.LINEARITY)) {
            Linearity.run(ctx, rulesV1, linearityRows);
        }
        if (selected.contains(Scenario.CATCH_UP)) {
            StreamingCatchUp.run(ctx, rulesV1, hotRows, hotUpdates);
        }
        if (selected.contains(Scenario.STREAMING)) {
            SustainedStreaming.run(ctx, rulesV1, new SustainedStreaming.Settings(hotRows, hotUpdates, hotPasses,
                lagRate, Duration.ofSeconds(lagSeconds), lagTransactionRows), repeat);
        }
        if (selected.contains(Scenario.TPCB)) {
            NewGroupUnderLoad.run(ctx, new NewGroupUnderLoad.Settings(new TpcbSchema(tpcbAccounts), tpcbClients,
                tpcbTps));
        }
        if (selected.contains(Scenario.STREAMS)) {
            ConcurrentStreams.run(ctx, rulesV1, new ConcurrentStreams.Settings(streamRows, streams, streamWave));
        }
        if (selected.contains(Scenario.INITIAL_SYNC)) {
            InitialSync.run(ctx, rulesV1, initialSizes.stream().map(InitialSync.Size::parse).toList(),
                InitialSync.Load.parse(initialLoad), initialClient);
        }
    }

    private void debeziumSnapshots(BenchContext ctx, String key, String what, DebeziumSnapshot.Target target) {
        String scenario = "B4 Debezium initial snapshot into Kafka";
        for (int threads : debeziumThreads) {
            String configuration = "snapshot.mode=initial, snapshot.max.threads " + threads + ", " + what
                + ", JsonConverter without schemas";
            ctx.recordFromRest(scenario, configuration, attempt -> {
                BenchContext.log("%s: %s ...", scenario, configuration);
                String name = "bench_dbz_" + key + "_t" + threads
                    + (attempt == 0 ? "" : "_r" + attempt);
                return DebeziumSnapshot.run(scenario, configuration, name, target, threads, ctx.kafka(),
                    ctx.timeout());
            });
        }
    }

    private static List<Long> postmasterPids(EmbeddedPostgres... servers) throws SQLException {
        List<Long> pids = new ArrayList<>();
        for (EmbeddedPostgres server : servers) {
            try (Connection c = new PgEndpoint(server.jdbcUrl("postgres"), server.superuser(), "").connect();
                 Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                pids.add(ServerProcesses.parentOf(rs.getLong(1)));
            }
        }
        return pids;
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String tableSize(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_size_pretty(pg_table_size('" + Dataset.TABLE + "'))")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
