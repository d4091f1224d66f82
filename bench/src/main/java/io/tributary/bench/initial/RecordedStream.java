package io.tributary.bench.initial;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sync stream served with no server work: first, as a proxy in front of the API, it keeps the
 * bytes of one {@code POST /sync/stream} response up to and including its first {@code checkpoint_complete} line
 * (BSON or NDJSON, as the client negotiated) in a file; then it answers every {@code POST /sync/stream} with those
 * bytes and holds the response open, as the API does, until the client goes. What the client then spends is its own
 * work on exactly what the API sent. Other requests go to the API in both modes and are counted. Requests are
 * served concurrently.
 */
final class RecordedStream implements AutoCloseable {

    private static final String STREAM = "/sync/stream";
    private static final byte[] COMPLETE = "checkpoint_complete".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String api;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicInteger forwarded = new AtomicInteger();
    private final Path file;
    private volatile boolean recorded;
    private volatile String contentType;

    private RecordedStream(String api, Path file) throws IOException {
        this.api = api;
        this.file = file;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * A server in front of the API at {@code api} ({@code http://host:port}), recording the next sync stream into
     * {@code file}.
     */
    static RecordedStream start(String api, Path file) throws IOException {
        return new RecordedStream(api, file);
    }

    /** Its endpoint, for the client. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The recorded stream's size in bytes, after a client synced through {@link #endpoint()}. */
    long bytes() throws IOException {
        if (!recorded) {
            throw new IllegalStateException("No sync stream recorded up to a checkpoint_complete line yet");
        }
        return Files.size(file);
    }

    /** Requests other than the sync stream that went to the API. */
    int forwarded() {
        return forwarded.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            boolean stream = exchange.getRequestURI().getPath().equals(STREAM);
            if (stream && recorded) {
                exchange.getResponseHeaders().add("Content-Type", contentType);
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                Files.copy(file, out);
                out.flush();
                closed.await();
                return;
            }
            if (!stream) {
                forwarded.incrementAndGet();
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + exchange.getRequestURI()))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String header : List.of("Authorization", "Content-Type", "Accept")) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            String type = response.headers().firstValue("Content-Type").orElse("application/octet-stream");
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(response.statusCode(), 0);
            try (InputStream in = response.body(); OutputStream out = exchange.getResponseBody()) {
                LineScanner lines = stream && response.statusCode() == 200 ? new LineScanner(type.contains("bson"))
                    : null;
                OutputStream kept = lines == null ? null : Files.newOutputStream(file);
                byte[] buffer = new byte[64 * 1024];
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (kept != null) {
                        int end = lines.feed(buffer, read);
                        kept.write(buffer, 0, end < 0 ? read : end);
                        if (end >= 0) {
                            kept.close();
                            kept = null;
                            contentType = type;
                            recorded = true;
                        }
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
                if (kept != null) {
                    kept.close();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away: the end of its sync
        }
    }

    /**
     * Finds the end of the first line holding {@code checkpoint_complete} in a stream fed chunk by chunk: BSON
     * documents (each starts with its little-endian length) or newline-ended JSON lines, each a sync line whose only
     * key names it.
     */
    static final class LineScanner {

        private static final int HEAD = 64;
        private final boolean bson;
        private final byte[] head = new byte[HEAD];
        private int headLength;
        private long consumed;
        private long length = -1;

        LineScanner(boolean bson) {
            this.bson = bson;
        }

        /** The offset in {@code chunk[0, n)} just after the line that completes the checkpoint, or -1. */
        int feed(byte[] chunk, int n) {
            for (int i = 0; i < n; i++) {
                byte b = chunk[i];
                if (headLength < HEAD) {
                    head[headLength++] = b;
                }
                consumed++;
                if (bson && length < 0 && consumed == 4) {
                    length = (head[0] & 0xFF) | (head[1] & 0xFF) << 8 | (head[2] & 0xFF) << 16
                        | (long) (head[3] & 0xFF) << 24;
                }
                boolean lineEnds = bson ? consumed == length : b == '\n';
                if (lineEnds) {
                    if (holdsComplete()) {
                        return i + 1;
                    }
                    headLength = 0;
                    consumed = 0;
                    length = -1;
                }
            }
            return -1;
        }

        /** Whether the line's first key is {@code checkpoint_complete}: BSON after length and type, JSON after '{"'. */
        private boolean holdsComplete() {
            int key = bson ? 5 : 2;
            return headLength >= key + COMPLETE.length
                && Arrays.equals(head, key, key + COMPLETE.length, COMPLETE, 0, COMPLETE.length);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
