package io.tributary.syncrules.powersync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PowerSync's own sync rules evaluator ({@code @powersync/service-sync-rules}, the version pinned in
 * {@code src/test/powersync/package-lock.json}), run by {@code src/test/powersync/oracle.mjs} under Node.
 *
 * <p>The first use installs the package with {@code npm ci} when {@code node_modules} is absent; a machine without
 * {@code node} or {@code npm} fails with a message saying so. Each {@link #evaluate} call runs one Node process.
 * Thread-safe.
 */
public final class PowerSyncOracle {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 120;
    private static final Path DIRECTORY = Path.of("src", "test", "powersync").toAbsolutePath();

    private static boolean installed;

    private PowerSyncOracle() {
    }

    /** What PowerSync's evaluator made of one row: its bucket rows (data as stored) and its errors. */
    public record Evaluation(List<BucketRow> rows, List<String> errors) {
    }

    /**
     * Evaluates {@code rows} under the rules {@code yaml}, one {@link Evaluation} per row in order.
     *
     * @throws AssertionError if PowerSync rejects the rules, or Node fails
     */
    public static List<Evaluation> evaluate(String yaml, List<PgRow> rows) {
        ObjectNode request = MAPPER.createObjectNode().put("yaml", yaml);
        ArrayNode inputs = request.putArray("rows");
        for (PgRow row : rows) {
            ObjectNode input = inputs.addObject().put("schema", row.schema()).put("table", row.table());
            ObjectNode columns = input.putObject("columns");
            for (PgValue value : row.values()) {
                columns.putObject(value.column()).put("oid", value.oid()).put("text", value.text());
            }
        }
        JsonNode response = run("oracle.mjs", request);
        if (!response.get("errors").isEmpty()) {
            throw new AssertionError("PowerSync rejects the rules: " + response.get("errors") + "\n" + yaml);
        }
        List<Evaluation> evaluations = new ArrayList<>();
        for (JsonNode row : response.get("rows")) {
            List<BucketRow> bucketRows = new ArrayList<>();
            for (JsonNode result : row.get("results")) {
                bucketRows.add(new BucketRow(result.get("bucket").textValue(), result.get("table").textValue(),
                    result.get("id").textValue(), result.get("data").textValue()));
            }
            List<String> errors = new ArrayList<>();
            row.get("errors").forEach(error -> errors.add(error.asText()));
            evaluations.add(new Evaluation(bucketRows, errors));
        }
        return evaluations;
    }

    /** Runs the oracle script {@code script} on {@code request} and returns its JSON answer. */
    static JsonNode run(String script, ObjectNode request) {
        install();
        Process node = start(List.of("node", script));
        try {
            try (OutputStream in = node.getOutputStream()) {
                in.write(MAPPER.writeValueAsBytes(request));
            }
            byte[] out;
            try (InputStream stdout = node.getInputStream()) {
                out = stdout.readAllBytes();
            }
            String err = new String(node.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            await(node, "node " + script);
            if (node.exitValue() != 0) {
                throw new AssertionError("node " + script + " exited with " + node.exitValue() + ": " + err);
            }
            return MAPPER.readTree(out);
        } catch (IOException e) {
            throw new AssertionError("node " + script + " failed: " + e.getMessage(), e);
        }
    }

    private static synchronized void install() {
        if (installed || Files.isDirectory(DIRECTORY.resolve("node_modules/@powersync/service-sync-rules"))) {
            installed = true;
            return;
        }
        Process npm = start(List.of("npm", "ci", "--no-audit", "--no-fund"));
        try {
            npm.getOutputStream().close();
            String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            await(npm, "npm ci");
            if (npm.exitValue() != 0) {
                throw new AssertionError("npm ci in " + DIRECTORY + " failed with " + npm.exitValue() + ":\n"
                    + output);
            }
            installed = true;
        } catch (IOException e) {
            throw new AssertionError("npm ci in " + DIRECTORY + " failed: " + e.getMessage(), e);
        }
    }

    private static Process start(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIRECTORY.toFile());
        if ("npm".equals(command.get(0))) {
            builder.redirectErrorStream(true);
        }
        try {
            return builder.start();
        } catch (IOException e) {
            throw new AssertionError("The PowerSync oracle needs Node.js 20+ and npm on the PATH; cannot run '"
                + command.get(0) + "': " + e.getMessage(), e);
        }
    }

    private static void await(Process process, String what) {
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(what + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError(what + " interrupted", e);
        }
    }
}
