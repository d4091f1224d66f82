package io.tributary.client.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tributary.testing.PostgresDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The app backend a PowerSync client uploads its local writes to: {@code POST /upload} with
 * {@code {"ops": [{"op": "PUT"|"PATCH"|"DELETE", "table": ..., "id": ..., "data": {...}}]}} (one client
 * transaction) is applied to the source database in one transaction, the way an app's backend writes what its
 * users changed. Values travel as text and Postgres casts them to the column types. Answers 204 once committed,
 * 400 for an operation it does not understand, 500 when the source refuses it.
 *
 * <p>Only the tables it was created for can be written. Thread-safe; listens on an ephemeral loopback port.
 */
public final class UploadBackend implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

    private final HttpServer server;
    private final PostgresDatabase source;
    private final Set<String> tables;
    private final AtomicInteger committed = new AtomicInteger();

    private UploadBackend(PostgresDatabase source, Set<String> tables) throws IOException {
        this.source = source;
        this.tables = Set.copyOf(tables);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/upload", this::handle);
        server.start();
    }

    /** A backend writing {@code tables} (in the source's {@code public} schema). */
    public static UploadBackend start(PostgresDatabase source, Set<String> tables) {
        try {
            return new UploadBackend(source, tables);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the upload backend", e);
        }
    }

    /** The URL clients post their transactions to. */
    public String uploadUrl() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/upload";
    }

    /** Client transactions committed to the source so far. */
    public int committedTransactions() {
        return committed.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                respond(exchange, 405, "POST a transaction to /upload");
                return;
            }
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            List<Operation> operations = new ArrayList<>();
            for (JsonNode op : body.path("ops")) {
                operations.add(Operation.of(op, tables));
            }
            apply(operations);
            committed.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
        } catch (IllegalArgumentException e) {
            respond(exchange, 400, e.getMessage());
        } catch (SQLException e) {
            respond(exchange, 500, "The source refused the transaction: " + e.getMessage());
        }
    }

    private void apply(List<Operation> operations) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", source.user());
        properties.setProperty("password", source.password());
        // Values are sent untyped, so Postgres casts text to the column's type (bigint, uuid, boolean, ...).
        properties.setProperty("stringtype", "unspecified");
        try (Connection c = DriverManager.getConnection(source.jdbcUrl(), properties)) {
            c.setAutoCommit(false);
            for (Operation operation : operations) {
                operation.apply(c);
            }
            c.commit();
        }
    }

    private static void respond(HttpExchange exchange, int status, String message) throws IOException {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** One CRUD entry of a client transaction. */
    private record Operation(String op, String table, String id, List<String> columns, List<String> values) {

        static Operation of(JsonNode op, Set<String> tables) {
            String table = op.path("table").asText();
            if (!tables.contains(table)) {
                throw new IllegalArgumentException("Table " + table + " cannot be written here; writable: " + tables);
            }
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (Iterator<String> names = op.path("data").fieldNames(); names.hasNext(); ) {
                String column = names.next();
                if (!IDENTIFIER.matcher(column).matches() || column.equals("id")) {
                    throw new IllegalArgumentException("Column " + column + " of " + table + " cannot be written");
                }
                JsonNode value = op.path("data").get(column);
                columns.add(column);
                values.add(value.isNull() ? null : value.asText());
            }
            return new Operation(op.path("op").asText(), table, op.path("id").asText(), columns, values);
        }

        void apply(Connection c) throws SQLException {
            String sql;
            List<String> parameters = new ArrayList<>();
            switch (op) {
                case "PUT" -> {
                    List<String> all = new ArrayList<>(List.of("id"));
                    all.addAll(columns);
                    sql = "INSERT INTO public." + table + " (" + String.join(", ", all) + ") VALUES ("
                        + String.join(", ", all.stream().map(column -> "?").toList()) + ")"
                        + " ON CONFLICT (id) DO " + (columns.isEmpty() ? "NOTHING" : "UPDATE SET "
                        + String.join(", ", columns.stream().map(column -> column + " = EXCLUDED." + column)
                        .toList()));
                    parameters.add(id);
                    parameters.addAll(values);
                }
                case "PATCH" -> {
                    if (columns.isEmpty()) {
                        return;
                    }
                    sql = "UPDATE public." + table + " SET "
                        + String.join(", ", columns.stream().map(column -> column + " = ?").toList())
                        + " WHERE id = ?";
                    parameters.addAll(values);
                    parameters.add(id);
                }
                case "DELETE" -> {
                    sql = "DELETE FROM public." + table + " WHERE id = ?";
                    parameters.add(id);
                }
                default -> throw new IllegalArgumentException("Unknown operation " + op + " on " + table);
            }
            try (PreparedStatement statement = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.size(); i++) {
                    statement.setString(i + 1, parameters.get(i));
                }
                statement.executeUpdate();
            }
        }
    }
}
