package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.net.FreePorts;
import io.tributary.testing.process.ChildProcess;
import io.tributary.testing.process.NodeProject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample app as the README runs it: {@code tributary run} on the embedded default (the runnable jar, its own
 * process) serves the sync API and prints a development token; {@code npm ci} in {@code examples/sync-sample}, then
 * {@code TRIBUTARY_TOKEN=<token> node sync.mjs --once} syncs the sample user's data with the real PowerSync client
 * and prints it. The API listens on a free port ({@code api.port}) that {@code TRIBUTARY_ENDPOINT} names, so parallel
 * test JVMs cannot collide on 8080.
 */
class SyncSampleIT {

    private static final Path JAR = Path.of("target", "tributary.jar");
    private static final Path EXAMPLE = Path.of("..", "examples", "sync-sample");
    private static final Path EXAMPLE_INSTALL = Path.of("target", "sync-sample");
    private static final Pattern TOKEN = Pattern.compile("Development token for sample user \\S+ \\(valid \\d+ h\\): "
        + "(\\S+)");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration SYNC_TIMEOUT = Duration.ofMinutes(6);

    @TempDir
    Path dir;

    @Test
    void theSampleAppSyncsTheSampleUsersListsAndTodos() throws Exception {
        assertThat(JAR).as("the runnable jar (the launcher's package phase builds it)").isRegularFile();
        int apiPort = FreePorts.pick();
        Path config = Files.writeString(dir.resolve("tributary.yaml"),
            "metrics:\n  port: 0\napi:\n  port: " + apiPort + "\n");
        Path runLog = dir.resolve("run.log");
        List<String> run = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
            "-jar", JAR.toAbsolutePath().toString(), "run", "--config", config.toString());
        Process tributary = ChildProcess.start("tributary run", run, System.getenv(), runLog);
        try {
            String token = await("the development token printed by `tributary run`").atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> tokenIn(runLog, tributary), t -> t != null);
            NodeProject example = NodeProject.installed(EXAMPLE, EXAMPLE_INSTALL, List.of("sync.mjs"));

            Map<String, String> environment = new HashMap<>(System.getenv());
            environment.put("TRIBUTARY_TOKEN", token);
            environment.put("TRIBUTARY_ENDPOINT", "http://localhost:" + apiPort);
            Path syncLog = dir.resolve("sync.log");
            ProcessBuilder sync = new ProcessBuilder("node", example.script("sync.mjs").toString(), "--once")
                .directory(example.directory().toFile()).redirectErrorStream(true).redirectOutput(syncLog.toFile());
            sync.environment().putAll(environment);
            Process app = sync.start();
            boolean exited = app.waitFor(SYNC_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!exited) {
                app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String output = Files.readString(syncLog, StandardCharsets.UTF_8);
            String diagnostics = output + "\n--- tributary run ---\n" + tail(runLog);
            assertThat(exited).as("`node sync.mjs --once` ends within %s:\n%s", SYNC_TIMEOUT, diagnostics).isTrue();
            assertThat(app.exitValue()).as(diagnostics).isZero();
            // The sample user (user 1 of 1,000) owns lists 1000, 2000, ..., 10000, each with 20 of the 200,000 todos,
            // and everyone gets the directory of every user.
            assertThat(output).as(diagnostics)
                .containsPattern("Synced in \\d+ ms: 1000 users, 10 lists, 200 todos")
                .contains("list 1000 \"List 1000\": 20 todos")
                .contains("list 10000 \"List 10000\": 20 todos");
        } finally {
            stop(tributary);
        }
    }

    private static String tokenIn(Path log, Process tributary) throws IOException {
        if (!tributary.isAlive()) {
            throw new IllegalStateException("`tributary run` exited with code " + tributary.exitValue() + ":\n"
                + tail(log));
        }
        if (!Files.exists(log)) {
            return null;
        }
        Matcher matcher = TOKEN.matcher(Files.readString(log, StandardCharsets.UTF_8));
        return matcher.find() ? matcher.group(1) : null;
    }

    /** Stops {@code run} as Ctrl-C does (it stops its embedded Kafka and Postgres), killing what is left after. */
    private static void stop(Process tributary) throws Exception {
        List<ProcessHandle> children = new ArrayList<>(tributary.descendants().toList());
        tributary.destroy();
        if (!tributary.waitFor(90, TimeUnit.SECONDS)) {
            tributary.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) {
                child.destroyForcibly();
                child.onExit().get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
