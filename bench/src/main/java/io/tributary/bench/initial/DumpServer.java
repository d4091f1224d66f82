package io.tributary.bench.initial;

import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpServer;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The dump ceiling's file: the live rows of one bucket, one NDJSON line each ({@code {"id": row id, "data": row JSON
 * text}}, the id and text the client stores for the row after a sync), written once from storage and then served by
 * {@code GET /dump.ndjson} on a free port of 127.0.0.1. Serves requests one at a time.
 */
final class DumpServer implements AutoCloseable {

    private final HttpServer server;
    private final long rows;
    private final long bytes;

    private DumpServer(HttpServer server, long rows, long bytes) {
        this.server = server;
        this.rows = rows;
        this.bytes = bytes;
    }

    /** Writes the dump of {@code bucket} of group {@code groupId} to {@code file} and serves it. */
    static DumpServer start(PgEndpoint storage, long groupId, String bucket, Path file)
        throws IOException, SQLException {
        long rows = write(storage, groupId, bucket, file);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/dump.ndjson", exchange -> {
            try (exchange) {
                exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
                exchange.sendResponseHeaders(200, Files.size(file));
                try (OutputStream out = exchange.getResponseBody()) {
                    Files.copy(file, out);
                }
            }
        });
        server.start();
        return new DumpServer(server, rows, Files.size(file));
    }

    /** The dump's URL. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/dump.ndjson";
    }

    /** Its rows. */
    long rows() {
        return rows;
    }

    /** Its size in bytes. */
    long bytes() {
        return bytes;
    }

    /** The newest op of each row of the bucket, when it is a PUT: the rows a client holds after a sync. */
    private static long write(PgEndpoint storage, long groupId, String bucket, Path file)
        throws IOException, SQLException {
        long rows = 0;
        try (Connection c = storage.connect(); OutputStream out = Files.newOutputStream(file);
             JsonGenerator g = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            g.setRootValueSeparator(null);
            c.setAutoCommit(false);
            try (PreparedStatement select = c.prepareStatement("SELECT row_id, data FROM (SELECT DISTINCT ON"
                + " (source_table, row_id) source_table, row_id, op, data FROM tributary.bucket_data"
                + " WHERE group_id = ? AND bucket = ? AND op IN (1, 2)"
                + " ORDER BY source_table, row_id, op_id DESC) newest WHERE op = 1")) {
                select.setLong(1, groupId);
                select.setString(2, bucket);
                select.setFetchSize(10_000);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        g.writeStartObject();
                        g.writeStringField("id", rs.getString(1));
                        g.writeStringField("data", rs.getString(2));
                        g.writeEndObject();
                        g.writeRaw('\n');
                        rows++;
                    }
                }
            }
            c.commit();
        }
        return rows;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
