package io.tributary.bench.load;

import io.tributary.bench.probe.ServerProcesses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An {@link ApiAlone} JVM started by the bench: its port, CPU, RSS and heap. Not thread-safe. */
public final class ApiProcess implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    private final int port;

    private ApiProcess(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.port = Integer.parseInt(answer("PORT"));
    }

    /** Starts the JVM with the bench's classpath; its log goes to {@code log}. */
    public static ApiProcess start(List<String> args, String javaOptions, Path log) throws IOException {
        return start(args, javaOptions, log, System.getProperty("java.class.path"));
    }

    /**
     * Starts the JVM with the bench's classpath, its {@code tributary-api} jar replaced by {@code apiJar} (another
     * build's, for a same-run A/B); its log goes to {@code log}.
     */
    static ApiProcess startWithApiJar(List<String> args, String javaOptions, Path log, String apiJar)
        throws IOException {
        List<String> entries = new ArrayList<>();
        boolean replaced = false;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("tributary-api-")) {
                entries.add(apiJar);
                replaced = true;
            } else {
                entries.add(entry);
            }
        }
        if (!replaced) {
            throw new IllegalStateException("no tributary-api jar on the bench's classpath to replace by " + apiJar);
        }
        return start(args, javaOptions, log, String.join(java.io.File.pathSeparator, entries));
    }

    private static ApiProcess start(List<String> args, String javaOptions, Path log, String classpath)
        throws IOException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java));
        if (!javaOptions.isBlank()) {
            command.addAll(List.of(javaOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-Dlogback.configurationFile=io/tributary/bench/logback-bench.xml", "-cp",
            classpath, ApiAlone.class.getName()));
        command.addAll(args);
        return new ApiProcess(new ProcessBuilder(command).redirectError(log.toFile()).start());
    }

    public int port() {
        return port;
    }

    /** CPU seconds (user + system) the JVM used so far. */
    public double cpuSeconds() {
        return ServerProcesses.cpuSeconds(process.pid());
    }

    /** Resident memory now, bytes ({@code VmRSS}). */
    long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for pid " + process.pid());
    }

    /** Heap used after a full GC, bytes. */
    long heapAfterGc() throws IOException {
        in.println("HEAP");
        return Long.parseLong(answer("HEAP"));
    }

    /** Sync streams the server holds open. */
    int activeStreams() throws IOException {
        in.println("STREAMS");
        return Integer.parseInt(answer("STREAMS"));
    }

    private String answer(String tag) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(tag + " ")) {
                return line.substring(tag.length() + 1).trim();
            }
        }
        throw new IOException("the api process ended before answering " + tag + " (exit "
            + (process.isAlive() ? "none" : process.exitValue()) + ")");
    }

    @Override
    public void close() throws InterruptedException {
        in.close();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
