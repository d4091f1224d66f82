package io.tributary.bench.pipeline;

import io.tributary.launcher.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One in-process {@code tributary run --config FILE --until-caught-up} with a generated config file, timed from
 * the call to its return. A run that does not return within the timeout is interrupted (the launcher closes its
 * pipeline on interrupt) and reported as timed out.
 */
public final class PipelineRun {

    private static final Pattern DEPLOYED = Pattern.compile("as sync rules group (\\d+)");

    /** What a run reported: exit code, wall seconds, and the launcher's own summary line if it printed one. */
    public record Outcome(int exitCode, long startedAtMillis, double wallSeconds, Optional<String> summary,
                          String output) {
        private static final Pattern CAUGHT_UP = Pattern.compile("Caught up in ([0-9.]+) s: (\\d+) rows");

        /** The launcher's own seconds (from the start of its progress reporting), if it caught up. */
        public Optional<Double> launcherSeconds() {
            return summary.map(CAUGHT_UP::matcher).filter(Matcher::find).map(m -> Double.parseDouble(m.group(1)));
        }

        /** The rows the launcher reports as snapshotted, if it caught up. */
        public Optional<Long> rowsSnapshotted() {
            return summary.map(CAUGHT_UP::matcher).filter(Matcher::find).map(m -> Long.parseLong(m.group(2)));
        }

        /** The last lines of the launcher's output, for a failure's note. */
        public String tail() {
            List<String> lines = output.lines().toList();
            return String.join(" / ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
        }
    }

    /**
     * Settings of one run; {@code name} makes the topic prefix, slot and publication unique; {@code chunkRows} is
     * {@code replication.snapshot.chunk_rows}.
     */
    public record Settings(String name, String kafka, String sourceUrl, String storageUrl, String user,
                           Path rulesFile, int workersPerProcess, int chunkRows) {

        /** The storage database. */
        public io.tributary.postgres.PgEndpoint storage() {
            return new io.tributary.postgres.PgEndpoint(storageUrl, user, "");
        }

        /** The run's configuration file text: source, storage, Kafka and replication, then the {@code more} lines. */
        public String configYaml(String... more) {
            List<String> lines = new ArrayList<>(List.of(
                "source:",
                "  url: " + sourceUrl,
                "  user: " + user,
                "storage:",
                "  url: " + storageUrl,
                "  user: " + user,
                "kafka:",
                "  bootstrap_servers: " + kafka,
                "  topic_prefix: " + name + ".",
                "replication:",
                "  workers_per_process: " + workersPerProcess,
                "  snapshot:",
                "    chunk_rows: " + chunkRows,
                "  slot_name: " + name,
                "  publication_name: " + name));
            lines.addAll(List.of(more));
            lines.add("");
            return String.join("\n", lines);
        }
    }

    private PipelineRun() {
    }

    /** Writes the config file next to the rules file and runs the launcher until caught up or {@code timeout}. */
    public static Outcome run(Settings settings, Duration timeout) throws IOException, InterruptedException {
        try (Running running = new Running(writeConfig(settings), true)) {
            return running.await(timeout);
        }
    }

    /**
     * Starts the launcher without {@code --until-caught-up}: it replicates until {@link Running#stop()}
     * interrupts it.
     */
    public static Running start(Settings settings) throws IOException {
        return new Running(writeConfig(settings), false);
    }

    /** A launcher call on its own thread. Not thread-safe. */
    public static final class Running implements AutoCloseable {
        private final StringWriter output = new StringWriter();
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-launcher"));
        private final long startedAt = System.currentTimeMillis();
        private final long start = System.nanoTime();
        private final Future<Integer> exit;

        private Running(Path config, boolean untilCaughtUp) {
            PrintWriter out = new PrintWriter(output, true);
            List<String> args = untilCaughtUp ? List.of("run", "--config", config.toString(), "--until-caught-up")
                : List.of("run", "--config", config.toString());
            exit = thread.submit(() -> Main.execute(out, out, args.toArray(String[]::new)));
        }

        /** Epoch milliseconds of the call. */
        public long startedAtMillis() {
            return startedAt;
        }

        /** Whether the launcher returned (a long-running one only does when it fails). */
        public boolean returned() {
            return exit.isDone();
        }

        /** The launcher's output so far. */
        public String output() {
            return output.toString();
        }

        /** Waits for the launcher to return; past {@code timeout} it is interrupted and the exit code is -1. */
        public Outcome await(Duration timeout) throws InterruptedException {
            int code;
            try {
                code = exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                exit.cancel(true);
                code = -1;
            } catch (ExecutionException e) {
                e.getCause().printStackTrace(new PrintWriter(output, true));
                code = -2;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Optional<String> summary = output.toString().lines().filter(l -> l.startsWith("Caught up in"))
                .reduce((a, b) -> b);
            return new Outcome(code, startedAt, seconds, summary, output.toString());
        }

        /**
         * Interrupts the launcher once (it closes its pipeline, as on a shutdown signal) and waits up to a minute for
         * it to return. A second interrupt would cut the pipeline's close short.
         */
        public Outcome stop() throws InterruptedException {
            exit.cancel(true);
            thread.shutdown();
            thread.awaitTermination(60, TimeUnit.SECONDS);
            return new Outcome(0, startedAt, (System.nanoTime() - start) / 1e9, Optional.empty(), output.toString());
        }

        @Override
        public void close() throws InterruptedException {
            thread.shutdownNow();
            thread.awaitTermination(60, TimeUnit.SECONDS);
        }
    }

    /**
     * {@code tributary deploy --config FILE RULES.yaml} against the config of {@code settings} (written by a run
     * started before): a new sync rules group, which a running pipeline picks up. Returns the new group's id.
     *
     * @throws IllegalStateException if the launcher refused the rules (its output is in the message)
     */
    public static long deploy(Settings settings, Path rules) {
        StringWriter output = new StringWriter();
        PrintWriter out = new PrintWriter(output, true);
        int code = Main.execute(out, out, "deploy", "--config", configFile(settings).toString(), rules.toString());
        Matcher deployed = DEPLOYED.matcher(output.toString());
        if (code != 0 || !deployed.find()) {
            throw new IllegalStateException("deploy of " + rules + " failed (exit " + code + "): " + output);
        }
        return Long.parseLong(deployed.group(1));
    }

    private static Path configFile(Settings settings) {
        return settings.rulesFile().resolveSibling(settings.name() + ".yaml");
    }

    private static Path writeConfig(Settings settings) throws IOException {
        Path config = configFile(settings);
        Files.writeString(config, settings.configYaml("sync_rules: " + settings.rulesFile().getFileName(), "metrics:",
            "  port: 0"));
        return config;
    }
}
