package io.tributary.bench.pipeline;

import io.tributary.launcher.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /** Settings of one run; {@code name} makes the topic prefix, slot and publication unique. */
    public record Settings(String name, String kafka, String sourceUrl, String storageUrl, String user,
                           Path rulesFile, int workersPerProcess) {
    }

    private PipelineRun() {
    }

    /** Writes the config file next to the rules file and runs the launcher until caught up or {@code timeout}. */
    public static Outcome run(Settings settings, Duration timeout) throws IOException, InterruptedException {
        Path config = settings.rulesFile().resolveSibling(settings.name() + ".yaml");
        Files.writeString(config, String.join("\n",
            "source:",
            "  url: " + settings.sourceUrl(),
            "  user: " + settings.user(),
            "storage:",
            "  url: " + settings.storageUrl(),
            "  user: " + settings.user(),
            "kafka:",
            "  bootstrap_servers: " + settings.kafka(),
            "  topic_prefix: " + settings.name() + ".",
            "sync_rules: " + settings.rulesFile().getFileName(),
            "replication:",
            "  workers_per_process: " + settings.workersPerProcess(),
            "  slot_name: " + settings.name(),
            "  publication_name: " + settings.name(),
            "metrics:",
            "  port: 0",
            ""));
        StringWriter output = new StringWriter();
        PrintWriter out = new PrintWriter(output, true);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-launcher"));
        long startedAt = System.currentTimeMillis();
        long start = System.nanoTime();
        try {
            Future<Integer> exit = thread.submit(() -> Main.execute(out, out, "run", "--config", config.toString(),
                "--until-caught-up"));
            int code;
            try {
                code = exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                exit.cancel(true);
                code = -1;
            } catch (ExecutionException e) {
                e.getCause().printStackTrace(out);
                code = -2;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Optional<String> summary = output.toString().lines().filter(l -> l.startsWith("Caught up in"))
                .reduce((a, b) -> b);
            return new Outcome(code, startedAt, seconds, summary, output.toString());
        } finally {
            thread.shutdownNow();
            thread.awaitTermination(60, TimeUnit.SECONDS);
        }
    }
}
