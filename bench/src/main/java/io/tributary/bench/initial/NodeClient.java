package io.tributary.bench.initial;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.process.NodeProject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real PowerSync client of scenario I: {@code bench/src/main/node/initial-sync.mjs} ({@code @powersync/node}
 * 1.1.0 with {@code @powersync/common} 2.3.0) on a native SQLite ({@code better-sqlite3} 12.9.0, built from source
 * by {@code npm ci} where no prebuilt binary is at hand) or the pure-JS one, installed by {@code npm ci} from the
 * committed lock into {@code bench/target/node}. Each measurement is a fresh Node process with an empty database.
 * Not thread-safe.
 */
final class NodeClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = "initial-sync.mjs";

    /** The client's SQLite. */
    enum Sqlite {
        /** {@code better-sqlite3}, the SDK's default on Node: a database file in a fresh temporary directory. */
        NATIVE("native", "better-sqlite3 12.9.0, a database file"),
        /** {@code @powersync/adapter-sql-js}: SQLite compiled to JavaScript, an in-memory database. */
        SQL_JS("sql-js", "the pure-JS SQLite (in memory)");

        private final String name;
        private final String description;

        Sqlite(String name, String description) {
            this.name = name;
            this.description = description;
        }

        /** {@code native} or {@code sql-js}, as {@code --initial-client} takes it. */
        static Sqlite parse(String text) {
            for (Sqlite sqlite : values()) {
                if (sqlite.name.equals(text.trim())) {
                    return sqlite;
                }
            }
            throw new IllegalArgumentException("--initial-client is native or sql-js, not " + text);
        }

        /** What the client is, for the results. */
        String describe() {
            return "@powersync/node 1.1.0 on " + description;
        }
    }

    private final NodeProject project;
    private final Sqlite sqlite;
    private final String table;
    private final List<String> columns;

    /**
     * What one measurement gave.
     *
     * @param seconds    the timed part: {@code connect()} to the first complete checkpoint, or the dump's GET and
     *                   insert
     * @param rows       the rows then in the client's table
     * @param cpuSeconds the Node process's CPU over the timed part
     */
    record Result(double seconds, long rows, double cpuSeconds) {
    }

    private NodeClient(NodeProject project, Sqlite sqlite, String table, List<String> columns) {
        this.project = project;
        this.sqlite = sqlite;
        this.table = table;
        this.columns = List.copyOf(columns);
    }

    /**
     * The client, its Node project installed if it is not yet (the bench runs from the repository's root), syncing
     * rows of {@code table} with text {@code columns} (besides {@code id}) into {@code sqlite}.
     */
    static NodeClient install(Sqlite sqlite, String table, List<String> columns) {
        return new NodeClient(NodeProject.installed(Path.of("bench", "src", "main", "node"),
            Path.of("bench", "target", "node"), List.of(SCRIPT)), sqlite, table, columns);
    }

    /** What the client is, for the results. */
    String describe() {
        return sqlite.describe();
    }

    /** A fresh client's initial sync from {@code endpoint} with {@code token}; its log goes to {@code log}. */
    Result sync(String endpoint, String token, Duration timeout, Path log) throws IOException, InterruptedException {
        ObjectNode args = arguments("sync", timeout);
        args.put("endpoint", endpoint);
        args.put("token", token);
        return run(args, timeout, log);
    }

    /** A fresh client's load of the NDJSON dump at {@code url}; its log goes to {@code log}. */
    Result dump(String url, Duration timeout, Path log) throws IOException, InterruptedException {
        ObjectNode args = arguments("dump", timeout);
        args.put("dumpUrl", url);
        return run(args, timeout, log);
    }

    private ObjectNode arguments(String mode, Duration timeout) {
        ObjectNode args = JSON.createObjectNode();
        args.put("mode", mode);
        args.put("sqlite", sqlite.name);
        args.put("table", table);
        columns.forEach(args.putArray("columns")::add);
        args.put("timeoutMs", timeout.toMillis());
        return args;
    }

    private Result run(ObjectNode args, Duration timeout, Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Path out = log.resolveSibling(log.getFileName() + ".out");
        Process node = new ProcessBuilder("node", "--max-old-space-size=8192", project.script(SCRIPT).toString(),
            JSON.writeValueAsString(args)).directory(project.script(SCRIPT).getParent().toFile())
            .redirectError(log.toFile()).redirectOutput(out.toFile()).start();
        if (!node.waitFor(timeout.toMillis() + 60_000, TimeUnit.MILLISECONDS)) {
            node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("the client did not finish within " + timeout.toSeconds() + " s; its log: " + log);
        }
        String output = Files.readString(out, StandardCharsets.UTF_8).trim();
        if (node.exitValue() != 0 || output.isEmpty()) {
            throw new IOException("the client failed (exit " + node.exitValue() + "); its log: " + log + ": "
                + tail(log));
        }
        JsonNode result = JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow());
        return new Result(result.get("seconds").asDouble(), result.get("rows").asLong(),
            result.get("cpuSeconds").asDouble());
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }
}
