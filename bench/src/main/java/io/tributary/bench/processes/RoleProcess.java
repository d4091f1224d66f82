package io.tributary.bench.processes;

import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code tributary run --config FILE --role ROLE} JVM started by the bench with the bench's classpath, the way
 * the Docker Compose topology runs each role in a container of its own: its metrics port (for {@code
 * /health/ready}), its CPU from {@code /proc} and a SIGTERM at the end. Its output goes to a log file. Not
 * thread-safe.
 */
final class RoleProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String role;
    private final Process process;
    private final int metricsPort;
    private final Path log;

    private RoleProcess(String role, Process process, int metricsPort, Path log) {
        this.role = role;
        this.process = process;
        this.metricsPort = metricsPort;
        this.log = log;
    }

    /**
     * Starts {@code role} with {@code config}; {@code environment} adds {@code TRIBUTARY_*} overrides (the metrics
     * port is set here).
     */
    static RoleProcess start(String role, Path config, int metricsPort, Map<String, String> environment,
                             String javaOptions, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java));
        if (!javaOptions.isBlank()) {
            command.addAll(List.of(javaOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-Dlogback.configurationFile=io/tributary/bench/logback-bench.xml", "-cp",
            System.getProperty("java.class.path"), "io.tributary.launcher.Main", "run", "--config",
            config.toString(), "--role", role));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("TRIBUTARY_METRICS_PORT", Integer.toString(metricsPort));
        return new RoleProcess(role, builder.start(), metricsPort, log);
    }

    /** The role's name on the command line. */
    String role() {
        return role;
    }

    /** Where its output goes. */
    Path log() {
        return log;
    }

    /** Whether the JVM still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /** Whether {@code /health/ready} answers 200 (every part of the role started and is healthy). */
    boolean ready() {
        try {
            HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                + metricsPort + "/health/ready")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** CPU the JVM used so far, with its JIT compiler threads' part. */
    CpuUse cpu() {
        return CpuProbe.ofJvm(process.pid());
    }

    /** SIGTERM, then up to 40 s for the role to hand its work back, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
