package io.tributary.chaos.harness;

import io.tributary.testing.net.FreePorts;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One {@code java -jar tributary.jar run --role <role>} child process: configured by its environment only (the
 * parent's is not inherited), output in {@code <logs>/<name>.log}. It remembers whether the harness ended it
 * ({@link #kill()}, {@link #stop(Duration)}), so an exit nobody asked for is visible ({@link #exitedOnItsOwn()}).
 *
 * <p>Thread-safe.
 */
public final class PipelineProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Small heaps and C1 only: many JVMs share a small machine. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-Xss512k");

    private final String name;
    private final ProcessRole role;
    private final Process process;
    private final Path log;
    private final int metricsPort;
    private volatile boolean ended;

    private PipelineProcess(String name, ProcessRole role, Process process, Path log, int metricsPort) {
        this.name = name;
        this.role = role;
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
    }

    /**
     * Starts a process of {@code role} named {@code name} (also its log file's name).
     *
     * @throws UncheckedIOException if it cannot be started
     */
    public static PipelineProcess start(String name, ProcessRole role, PipelineSettings settings) {
        int port = FreePorts.pick();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-jar");
        command.add(settings.jar().toAbsolutePath().toString());
        command.addAll(role.command());
        Map<String, String> environment = settings.environment(role, port);
        Path log = settings.logs().resolve(name + ".log");
        return new PipelineProcess(name, role, ChildProcess.start(name, command, environment, log), log, port);
    }

    /** The process's name, e.g. {@code storage-writer-2.1} (role, slot, incarnation). */
    public String name() {
        return name;
    }

    public ProcessRole role() {
        return role;
    }

    /** The operating system's process id. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Whether it exited although the harness never killed or stopped it. */
    public boolean exitedOnItsOwn() {
        return !ended && !process.isAlive();
    }

    /** The exit code once it exited. */
    public Optional<Integer> exitCode() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** Whether {@code /health/ready} answers 200 (false while it does not listen yet). */
    public boolean ready() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + metricsPort + "/health/ready"))
            .timeout(Duration.ofSeconds(5)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code kill -9}: the process gets no chance to clean up. Waits until it is gone. */
    public void kill() {
        ended = true;
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /**
     * Asks it to stop ({@code SIGTERM}, as an orchestrator does) and waits up to {@code grace}; kills it if it is
     * still alive then.
     *
     * @return whether it stopped within {@code grace}
     */
    public boolean stop(Duration grace) {
        ended = true;
        process.destroy();
        if (awaitExit(grace)) {
            return true;
        }
        kill();
        return false;
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last {@code lines} lines of its output. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** Its log file. */
    public Path log() {
        return log;
    }

    @Override
    public String toString() {
        return name + "(pid " + process.pid() + (process.isAlive() ? "" : ", exited") + ")";
    }
}
