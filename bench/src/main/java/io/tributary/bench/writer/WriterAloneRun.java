package io.tributary.bench.writer;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Checked;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scenario W, the storage writer alone: a fresh sync rules group replays the {@code rows} topic a snapshot run
 * left (pre-filled, nothing produces to it any more) with the writer in a JVM of its own ({@link WriterAlone}), so
 * the row's JVM CPU is the writer's only (its Kafka consumers, committers, checkpointer, GC; the JIT shown apart),
 * measured over the same window as its seconds: from the writer's start (consumer group join included) until every
 * partition's stored offset reached its last record and a checkpoint covers every op. The row's Postgres CPU is
 * that of the writer's own storage backends (tagged with its consumer group); both servers' whole CPU over the
 * same window (autovacuum and every other backend included) and the broker's (the bench JVM's) go in the notes.
 * No ingest runs, so the bench marks the group planned itself (the planner would, from the windows the snapshot
 * run left DONE) and appends a barrier to every partition every second ({@link BarrierTicker}), as a running
 * pipeline would.
 *
 * <p>{@code BENCH_WRITER_JAVA_OPTS} passes options to the writer's JVM (e.g. a profiler agent);
 * {@code BENCH_WRITER_PERF=<file>} records the storage server's processes with Linux {@code perf} over the window.
 * {@code BENCH_WRITER_BASELINE_JAR} names another build's jars (path-separated): a jar named like one of the
 * classpath's Tributary jars ({@code tributary-topics-<version>.jar}) replaces it, any other name replaces the
 * storage writer's. That build replays a copy of {@code rows} in the JSON envelope ({@link JsonRowsCopy}), which
 * every build reads, or with {@code BENCH_WRITER_BASELINE_ROWS=same} (a build that reads the binary envelope) the
 * same topic.
 */
public final class WriterAloneRun {

    private static final int FIRST_VERSION = 100;
    private static final String WRITER_ARTIFACT = "tributary-storage-writer";
    private static final Pattern ARTIFACT = Pattern.compile("(tributary-[a-z-]+?)-[0-9].*\\.jar");

    private WriterAloneRun() {
    }

    /**
     * One row per value of {@code loops} over the {@code rows} of {@code of} ({@code rows} source rows); with
     * {@code BENCH_WRITER_BASELINE_JAR} set (another build's storage writer jar), each is preceded by a row of that
     * build on the same topic, for a same-run comparison.
     */
    public static void run(BenchContext ctx, PipelineRun.Settings of, PgEndpoint source, long rows, List<Integer> loops,
                           int batchRecords) {
        int[] version = {FIRST_VERSION};
        String classpath = System.getProperty("java.class.path");
        String baseline = System.getenv().getOrDefault("BENCH_WRITER_BASELINE_JAR", "");
        for (int loop : loops) {
            String scenario = "W storage writer alone";
            String configuration = String.format(Locale.ROOT, "fresh group replaying %s.rows, writer in its own JVM,"
                + " %d loop%s, batches of %,d", of.name(), loop, loop == 1 ? "" : "s", batchRecords);
            if (!baseline.isBlank()) {
                String withBaseline = withJars(classpath, baseline);
                boolean sameRows = "same".equals(System.getenv("BENCH_WRITER_BASELINE_ROWS"));
                String label = configuration + ", build of " + baselineNames(baseline)
                    + (sameRows ? "" : " on a JSON-envelope copy");
                ctx.recordFromRest(scenario, label, attempt -> {
                    String prefix = sameRows ? of.name() + "." : of.name() + "_json.";
                    if (!sameRows) {
                        JsonRowsCopy.make(kafka(of), of.name() + ".rows", prefix + "rows");
                    }
                    return once(ctx, scenario, label, of, prefix, source, rows, loop, batchRecords, version[0]++,
                        withBaseline);
                });
            }
            ctx.recordFromRest(scenario, configuration, attempt -> {
                BenchContext.log("%s: %s ...", scenario, configuration);
                return once(ctx, scenario, configuration, of, of.name() + ".", source, rows, loop, batchRecords,
                    version[0]++, classpath);
            });
        }
    }

    /** {@code classpath} with the jars of {@code baseline} (path-separated) in place of those they replace. */
    private static String withJars(String classpath, String baseline) {
        Map<String, String> replacements = new HashMap<>();
        for (String jar : baseline.split(java.io.File.pathSeparator)) {
            replacements.put(artifact(Path.of(jar).getFileName().toString()).orElse(WRITER_ARTIFACT), jar);
        }
        List<String> entries = new ArrayList<>();
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Optional<String> artifact = artifact(Path.of(entry).getFileName().toString());
            String replacement = artifact.map(replacements::get).orElse(null);
            entries.add(replacement == null ? entry : replacement);
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** The Tributary artifact a jar's file name names ({@code tributary-topics-0.1.0.jar}: tributary-topics). */
    private static Optional<String> artifact(String fileName) {
        Matcher m = ARTIFACT.matcher(fileName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static String baselineNames(String baseline) {
        List<String> names = new ArrayList<>();
        for (String jar : baseline.split(java.io.File.pathSeparator)) {
            names.add(Path.of(jar).getFileName().toString());
        }
        return String.join(" + ", names);
    }

    private static Properties kafka(PipelineRun.Settings of) {
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", of.kafka());
        return kafka;
    }

    private static Row once(BenchContext ctx, String scenario, String configuration, PipelineRun.Settings of,
                            String prefix, PgEndpoint source, long rows, int loops, int batchRecords, int version,
                            String classpath) throws Exception {
        PgEndpoint storage = of.storage();
        String rules = Dataset.syncRules(version);
        long group;
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            group = SyncRulesGroups.create(c, rules).id();
            SyncRulesGroups.markPlanned(c, List.of(group));
        }
        Path rulesFile = ctx.rulesFile(of.name() + "-w" + version, rules);
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>();
        command.add(java);
        String options = System.getenv().getOrDefault("BENCH_WRITER_JAVA_OPTS", "");
        if (!options.isBlank()) {
            command.addAll(Arrays.asList(options.trim().split("\\s+")));
        }
        command.addAll(List.of("-Dlogback.configurationFile=io/tributary/bench/logback-bench.xml", "-cp", classpath,
            WriterAlone.class.getName(), of.kafka(),
            prefix, of.storageUrl(), of.user(), Long.toString(group), Integer.toString(loops),
            Integer.toString(batchRecords), rulesFile.toString()));
        Path log = ctx.work().resolve("writer-alone-" + version + ".log");
        try (BarrierTicker ticker = BarrierTicker.start(kafka(of), prefix + "rows")) {
            return watch(ctx, scenario, configuration, source, rows, version, command, log, storage);
        }
    }

    private static Row watch(BenchContext ctx, String scenario, String configuration, PgEndpoint source, long rows,
                             int version, List<String> command, Path log, PgEndpoint storage) throws Exception {
        Process process = new ProcessBuilder(command).redirectError(log.toFile())
            .redirectOutput(ProcessBuilder.Redirect.PIPE).start();
        CompletableFuture.runAsync(process::destroyForcibly,
            CompletableFuture.delayedExecutor(ctx.timeout().toSeconds(), TimeUnit.SECONDS));
        Process perf = null;
        CpuUse before = null;
        CpuUse after = null;
        double seconds = -1;
        double first = -1;
        double jvm = 0;
        double jit = 0;
        double backends = 0;
        double watcher = 0;
        double poll = 0;
        double commit = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                String[] fields = line.split(" ");
                if (fields[0].equals("START")) {
                    perf = startPerf(ctx);
                    before = ctx.cpu().total();
                } else if (fields[0].equals("FIRST")) {
                    first = Double.parseDouble(fields[1]);
                } else if (fields[0].equals("DONE")) {
                    after = ctx.cpu().total();
                    if (perf != null) {
                        perf.destroy();
                        perf.waitFor();
                    }
                    seconds = Double.parseDouble(fields[1]);
                    jvm = Double.parseDouble(fields[2]);
                    jit = Double.parseDouble(fields[3]);
                    backends = Double.parseDouble(fields[4]);
                    watcher = Double.parseDouble(fields[5]);
                    poll = Double.parseDouble(fields[6]);
                    commit = Double.parseDouble(fields[7]);
                }
            }
        }
        process.waitFor();
        if (before == null || after == null) {
            String tail = tail(log);
            BenchContext.log("%s failed: %s", scenario, tail);
            return Row.failed(scenario, configuration, rows, 0, "FAILED: " + tail);
        }
        CpuUse server = after.since(before);
        CpuUse writer = new CpuUse(jvm, jit, backends);
        Row row = Row.ok(scenario, configuration, rows, seconds, String.format(Locale.ROOT,
            "PG = the writer's storage backends; writer threads (poll + commit) %.1f + %.1f us/row; Postgres servers"
                + " overall %,.0f us/row; broker and bench JVM %,.0f us/row (JIT %,.0f); the writer JVM's progress"
                + " watcher %.1f us/row, left out; first commit at %.2f s", poll * 1e6 / rows, commit * 1e6 / rows,
            server.postgresSeconds() * 1e6 / rows, server.jvmSeconds() * 1e6 / rows, server.jitSeconds() * 1e6 / rows,
            watcher * 1e6 / rows, first)).withCpu(writer);
        return Checked.row(row, source, Dataset.expected(version), storage).withCpu(writer);
    }

    /** Linux {@code perf} recording the storage server (the last postmaster) and its children, if asked for. */
    private static Process startPerf(BenchContext ctx) throws IOException {
        String file = System.getenv("BENCH_WRITER_PERF");
        if (file == null || file.isBlank()) {
            return null;
        }
        List<Long> postmasters = ctx.cpu().postmasterPids();
        return new ProcessBuilder("perf", "record", "-F", "999", "-g", "-o", file, "-p",
            Long.toString(postmasters.get(postmasters.size() - 1))).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }
}
