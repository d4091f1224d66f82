package io.tributary.client.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.process.NodeProject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One real PowerSync client, run by the Node driver ({@code driver.mjs}) in a child process: an in-memory SQLite
 * database that syncs over HTTP streaming from an endpoint, with a backend connector whose tokens the test
 * supplies and whose uploads go to a backend URL.
 *
 * <p>Each method sends one command and waits for its reply; a reply that reports an error, a driver that exits or
 * a reply that does not come within the command's timeout throws {@link ClientException} with the driver's last
 * diagnostics. The driver's stderr (the SDK's log from system property {@code client.log.level} on: 20 debug, 30
 * info, the default, 40 warnings) goes to a log file. Not thread-safe: one test thread drives one client.
 */
public final class SyncClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The driver script of the Node project ({@code src/test/node}). */
    private static final String DRIVER = "driver.mjs";
    /** Replies of commands that do not wait on sync come at once; this bounds a driver that hangs. */
    /**
     * How long the driver may take to answer a command (30 s; {@code -Dclient.command.timeout.seconds} sets another,
     * for a machine so loaded that the client's database takes longer to open).
     */
    private static final Duration COMMAND_TIMEOUT =
        Duration.ofSeconds(Long.getLong("client.command.timeout.seconds", 30));
    private static final int DIAGNOSTIC_LINES = 40;

    private final String name;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<JsonNode> replies = new LinkedBlockingQueue<>();
    private final Deque<String> lastDiagnostics = new ArrayDeque<>();
    private final AtomicLong nextId = new AtomicLong();

    private SyncClient(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        daemon(name + "-replies", () -> readReplies(process));
        daemon(name + "-stderr", () -> copyDiagnostics(process, log));
    }

    /**
     * Starts a driver process and opens its database with {@code tables} (each a list of text columns besides
     * {@code id}, the views the client builds over its synced rows).
     *
     * @param name names the client in diagnostics and its log file
     * @param logDirectory where {@code <name>.log} receives the driver's stderr
     */
    public static SyncClient start(String name, Map<String, List<String>> tables, Path logDirectory) {
        NodeProject project = NodeProject.installed(directory("client.node.project", "src/test/node"),
            directory("client.node.install", "target/node"), List.of(DRIVER));
        try {
            Files.createDirectories(logDirectory);
            ProcessBuilder builder = new ProcessBuilder("node", project.script(DRIVER).toString())
                .directory(project.directory().toFile());
            builder.environment().put("TRIBUTARY_CLIENT_LOG_LEVEL", System.getProperty("client.log.level", "30"));
            Process process = builder.start();
            SyncClient client = new SyncClient(name, process, logDirectory.resolve(name + ".log"));
            ObjectNode open = JSON.createObjectNode();
            ObjectNode tableNode = open.putObject("tables");
            tables.forEach((table, columns) -> {
                ArrayNode list = tableNode.putArray(table);
                columns.forEach(list::add);
            });
            client.send("open", open, COMMAND_TIMEOUT);
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the client driver `node " + project.script(DRIVER) + "`", e);
        }
    }

    /**
     * Connects to the sync endpoint; the connector hands out {@code tokens} in order, then keeps the last one.
     *
     * @param uploadUrl where the connector posts local writes
     */
    public void connect(String endpoint, List<String> tokens, String uploadUrl) {
        connect(endpoint, tokens, uploadUrl, JSON.createObjectNode());
    }

    /**
     * Connects as {@link #connect(String, List, String)} does, with client parameters (what the sync rules read as
     * {@code request.parameters()}).
     */
    public void connect(String endpoint, List<String> tokens, String uploadUrl, ObjectNode params) {
        ObjectNode arguments = JSON.createObjectNode().put("endpoint", endpoint).put("uploadUrl", uploadUrl);
        tokens.forEach(arguments.putArray("tokens")::add);
        arguments.set("params", params);
        send("connect", arguments, COMMAND_TIMEOUT);
    }

    /** The tokens the connector hands out from its next credentials fetch on. */
    public void setTokens(List<String> tokens) {
        ObjectNode arguments = JSON.createObjectNode();
        tokens.forEach(arguments.putArray("tokens")::add);
        send("setTokens", arguments, COMMAND_TIMEOUT);
    }

    /** Waits for the client's first complete sync; returns the status then. */
    public ClientStatus awaitFirstSync(Duration timeout) {
        return ClientStatus.of(send("waitForSync", JSON.createObjectNode().put("timeoutMs", timeout.toMillis()),
            timeout.plus(COMMAND_TIMEOUT)));
    }

    /** Waits for the client's first sync of every bucket with {@code priority} or a higher one (lower number). */
    public ClientStatus awaitFirstSync(int priority, Duration timeout) {
        return ClientStatus.of(send("waitForSync", JSON.createObjectNode().put("priority", priority)
            .put("timeoutMs", timeout.toMillis()), timeout.plus(COMMAND_TIMEOUT)));
    }

    /** The sync status and what the connector did. */
    public ClientStatus status() {
        return ClientStatus.of(send("status", JSON.createObjectNode(), COMMAND_TIMEOUT));
    }

    /** The rows of a local query, each an object of column name to value. */
    public List<JsonNode> query(String sql, Object... params) {
        JsonNode rows = send("query", withParams(JSON.createObjectNode().put("sql", sql), params), COMMAND_TIMEOUT);
        List<JsonNode> result = new ArrayList<>();
        rows.forEach(result::add);
        return result;
    }

    /** A local write, queued for upload the way an app's write is. */
    public void execute(String sql, Object... params) {
        send("execute", withParams(JSON.createObjectNode().put("sql", sql), params), COMMAND_TIMEOUT);
    }

    /** Closes the sync stream (the local database stays). */
    public void disconnect() {
        send("disconnect", JSON.createObjectNode(), COMMAND_TIMEOUT);
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                send("close", JSON.createObjectNode(), COMMAND_TIMEOUT);
            }
        } catch (ClientException e) {
            process.destroyForcibly();
        } finally {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    private static ObjectNode withParams(ObjectNode arguments, Object... params) {
        ArrayNode list = arguments.putArray("params");
        for (Object param : params) {
            list.addPOJO(param);
        }
        return arguments;
    }

    private JsonNode send(String command, ObjectNode arguments, Duration timeout) {
        long id = nextId.incrementAndGet();
        ObjectNode request = JSON.createObjectNode().put("id", id).put("command", command);
        request.setAll(arguments);
        try {
            commands.write(JSON.writeValueAsString(request) + "\n");
            commands.flush();
        } catch (IOException e) {
            throw failure("cannot send \"" + command + "\" (" + e.getMessage() + ")");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                JsonNode reply = replies.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (reply == null) {
                    throw failure(process.isAlive() ? "no reply to \"" + command + "\" within " + timeout
                        : "the driver exited with code " + process.exitValue() + " during \"" + command + "\"");
                }
                if (reply.path("id").asLong() != id) {
                    continue;
                }
                if (!reply.path("ok").asBoolean()) {
                    throw failure("\"" + command + "\" failed: " + reply.path("error").asText());
                }
                return reply.path("result");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted while waiting for \"" + command + "\"");
        }
    }

    private ClientException failure(String what) {
        String diagnostics;
        synchronized (lastDiagnostics) {
            diagnostics = String.join("\n", lastDiagnostics);
        }
        return new ClientException("Client " + name + ": " + what
            + (diagnostics.isEmpty() ? "" : "\nLast diagnostics of the driver:\n" + diagnostics));
    }

    private void readReplies(Process driver) {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(driver.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                try {
                    replies.add(JSON.readTree(line));
                } catch (IOException e) {
                    remember("(stdout, not a reply) " + line);
                }
            }
        } catch (IOException e) {
            remember("stdout closed: " + e.getMessage());
        }
    }

    private void copyDiagnostics(Process driver, Path log) {
        try (BufferedReader err = new BufferedReader(
            new InputStreamReader(driver.getErrorStream(), StandardCharsets.UTF_8));
             Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                 StandardOpenOption.APPEND)) {
            for (String line = err.readLine(); line != null; line = err.readLine()) {
                remember(line);
                file.write(line + "\n");
                file.flush();
            }
        } catch (IOException e) {
            remember("stderr closed: " + e.getMessage());
        }
    }

    private void remember(String line) {
        synchronized (lastDiagnostics) {
            lastDiagnostics.addLast(line);
            while (lastDiagnostics.size() > DIAGNOSTIC_LINES) {
                lastDiagnostics.removeFirst();
            }
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The directory a build's system property names, else {@code fallback} (relative to the module). */
    private static Path directory(String property, String fallback) {
        return Path.of(System.getProperty(property, fallback)).toAbsolutePath();
    }
}
