package io.tributary.client.expect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.process.NodeProject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The bucket set PowerSync gives a request: {@code @powersync/service-sync-rules} (the sync-rules module's oracle
 * project, {@code parameters.mjs}, installed under {@code target/powersync-oracle}) evaluates the parameter queries
 * over the current rows of the source tables they read and answers {@code getBucketParameterQuerier}'s buckets.
 * Each call runs one Node process. Thread-safe.
 */
public final class PowerSyncBucketSets {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = "parameters.mjs";
    private static final long TIMEOUT_SECONDS = 120;

    private PowerSyncBucketSets() {
    }

    /**
     * The buckets of a request with JWT {@code claims} and client {@code parameters} under {@code rules}, over the
     * rows {@code source} holds now in {@code tables} (names in schema public).
     *
     * @throws AssertionError if PowerSync rejects the rules or the request, or Node fails
     */
    public static Set<String> of(String rules, Connection source, List<String> tables, ObjectNode claims,
                                 ObjectNode parameters) throws SQLException {
        ObjectNode request = JSON.createObjectNode().put("yaml", rules);
        ArrayNode rows = request.putArray("rows");
        for (String table : tables) {
            addRows(source, table, rows);
        }
        request.putArray("requests").addObject().<ObjectNode>set("claims", claims).set("parameters", parameters);
        JsonNode answer = run(request);
        if (!answer.path("errors").isEmpty()) {
            throw new AssertionError("PowerSync rejects the rules: " + answer.get("errors"));
        }
        JsonNode result = answer.path("requests").path(0);
        if (!result.path("errors").isEmpty()) {
            throw new AssertionError("PowerSync's errors for the request: " + result.get("errors"));
        }
        Set<String> buckets = new TreeSet<>();
        result.path("buckets").forEach(bucket -> buckets.add(bucket.textValue()));
        return buckets;
    }

    /** Each row of public.{@code table} as the oracle reads it: every column's type oid and text output. */
    private static void addRows(Connection source, String table, ArrayNode rows) throws SQLException {
        List<String> names = new ArrayList<>();
        List<Integer> oids = new ArrayList<>();
        try (PreparedStatement columns = source.prepareStatement("SELECT attname, atttypid::int FROM pg_attribute"
            + " WHERE attrelid = ('public.' || quote_ident(?))::regclass AND attnum > 0 AND NOT attisdropped"
            + " ORDER BY attnum")) {
            columns.setString(1, table);
            try (ResultSet rs = columns.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                    oids.add(rs.getInt(2));
                }
            }
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            select.append(i == 0 ? "" : ", ").append('"').append(names.get(i).replace("\"", "\"\"")).append("\"::text");
        }
        select.append(" FROM public.\"").append(table.replace("\"", "\"\"")).append('"');
        try (PreparedStatement statement = source.prepareStatement(select.toString());
             ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                ObjectNode row = rows.addObject().put("schema", "public").put("table", table);
                ObjectNode values = row.putObject("columns");
                for (int i = 0; i < names.size(); i++) {
                    values.putObject(names.get(i)).put("oid", oids.get(i)).put("text", rs.getString(i + 1));
                }
            }
        }
    }

    private static JsonNode run(ObjectNode request) {
        Path project = Path.of(System.getProperty("user.dir")).resolveSibling("sync-rules")
            .resolve("src/test/powersync");
        NodeProject oracle = NodeProject.installed(project, Path.of("target", "powersync-oracle"),
            List.of(SCRIPT, "pgvalues.mjs"));
        try {
            Process node = new ProcessBuilder("node", oracle.script(SCRIPT).toString())
                .directory(oracle.directory().toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (OutputStream in = node.getOutputStream()) {
                in.write(JSON.writeValueAsBytes(request));
            }
            byte[] out;
            try (InputStream stdout = node.getInputStream()) {
                out = stdout.readAllBytes();
            }
            if (!node.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                throw new AssertionError("node " + SCRIPT + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (node.exitValue() != 0) {
                throw new AssertionError("node " + SCRIPT + " exited with " + node.exitValue());
            }
            return JSON.readTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run the PowerSync oracle `node " + SCRIPT + "`", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while the PowerSync oracle ran", e);
        }
    }
}
