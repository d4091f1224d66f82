package io.tributary.launcher.deploy;

import io.tributary.testing.process.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code java -jar tributary.jar} child process, configured by environment variables only (the parent's
 * environment is not inherited), its output in a log file. {@link #close()} kills it.
 */
public final class LauncherProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Small heaps and C1 only: several JVMs start at once on a small machine. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1");

    private final String name;
    private final Process process;
    private final Path log;
    private final int metricsPort;

    private LauncherProcess(String name, Process process, Path log, int metricsPort) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
    }

    /**
     * Starts {@code java -jar jar args...}.
     *
     * @param environment the child's whole environment
     * @param metricsPort the port its {@code TRIBUTARY_METRICS_PORT} names
     */
    public static LauncherProcess start(String name, Path jar, List<String> args, Map<String, String> environment,
                                        int metricsPort, Path logDirectory) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The runnable jar " + jar.toAbsolutePath() + " is missing: run the "
                + "launcher's package phase first (mvn verify does)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(args);
        Path log = logDirectory.resolve(name + ".log");
        return new LauncherProcess(name, ChildProcess.start(name, command, environment, log), log, metricsPort);
    }

    public String name() {
        return name;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Whether {@code /health/ready} answers 200 (false while it does not listen yet). */
    public boolean ready() {
        return status("/health/ready") == 200;
    }

    /** The body of {@code /metrics}. */
    public String metrics() {
        return get("/metrics").body();
    }

    /** The last {@code lines} lines of the process's output. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private int status(String path) {
        try {
            return get(path).statusCode();
        } catch (UncheckedIOException e) {
            return -1;
        }
    }

    private HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + metricsPort + path))
            .timeout(Duration.ofSeconds(5)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(name + " " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted reading " + path + " of " + name, e);
        }
    }

    /** Asks the process to stop (SIGTERM), as an orchestrator does. */
    public void stop() {
        process.destroy();
    }

    /** Kills the process if it still runs and waits for it to be gone. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
