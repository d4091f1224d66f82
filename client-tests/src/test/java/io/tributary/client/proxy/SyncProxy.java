package io.tributary.client.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tributary.api.protocol.BsonLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An HTTP proxy between a client and the sync API that records what passes and can rewrite one line of a sync
 * stream: each {@code POST /sync/stream} is recorded with its request body, response status and every line the
 * client received (after rewriting), as NDJSON text also when the stream is BSON (the PowerSync clients ask for BSON;
 * a rewritten BSON document is encoded again); other requests are forwarded and recorded by path and status.
 *
 * <p>Responses are forwarded line by line as they arrive, so the client sees checkpoints as live as without the
 * proxy. Thread-safe; listens on an ephemeral port of the loopback interface.
 */
public final class SyncProxy implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Headers not forwarded: those {@link HttpClient} sets itself and refuses to take from a caller, and
     * {@code accept-encoding}, so the proxy reads the stream's lines uncompressed.
     */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host",
        "upgrade", "transfer-encoding", "accept-encoding");

    /** One sync stream: what the client asked for, and what it received (with the response's content type). */
    public record Stream(JsonNode request, int status, String contentType, List<String> lines) {

        /** The received lines that are JSON objects with {@code key} at the top. */
        public List<JsonNode> linesWith(String key) {
            return lines.stream().map(SyncProxy::parse).filter(line -> line.has(key)).toList();
        }
    }

    /** Any request other than a sync stream, with the response body. */
    public record Exchange(String method, String pathAndQuery, int status, String body) {
    }

    private record Rewrite(Predicate<JsonNode> matches, UnaryOperator<JsonNode> rewrite) {
    }

    /** Lines after the first one that {@code matches} wait until {@code released}. */
    private record Hold(Predicate<JsonNode> matches, CountDownLatch held, CountDownLatch released) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "sync-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpClient upstream = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI target;
    private final boolean ndjson;
    private final List<Stream> streams = new CopyOnWriteArrayList<>();
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final AtomicReference<Optional<Rewrite>> nextRewrite = new AtomicReference<>(Optional.empty());
    private final AtomicReference<Optional<Hold>> hold = new AtomicReference<>(Optional.empty());

    private SyncProxy(URI target, boolean ndjson) throws IOException {
        this.target = target;
        this.ndjson = ndjson;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A proxy to the API at {@code target} (e.g. {@code http://localhost:8080}). */
    public static SyncProxy to(URI target) {
        return start(target, false);
    }

    /**
     * A proxy that asks the API for NDJSON streams whatever the client accepts (the PowerSync clients prefer BSON):
     * it forwards a stream request without its {@code Accept} header.
     */
    public static SyncProxy toNdjson(URI target) {
        return start(target, true);
    }

    private static SyncProxy start(URI target, boolean ndjson) {
        try {
            return new SyncProxy(target, ndjson);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the sync proxy", e);
        }
    }

    /** The endpoint clients connect to instead of the API. */
    public String endpoint() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** Every sync stream so far, oldest first. */
    public List<Stream> streams() {
        return List.copyOf(streams);
    }

    /** Every other request so far, oldest first. */
    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    /**
     * Rewrites the next sync line (of any stream) that {@code matches}, once: the client receives
     * {@code rewrite(line)} instead.
     */
    public void rewriteNext(Predicate<JsonNode> matches, UnaryOperator<JsonNode> rewrite) {
        nextRewrite.set(Optional.of(new Rewrite(matches, rewrite)));
    }

    /** Whether the rewrite set by {@link #rewriteNext} has been applied. */
    public boolean rewritten() {
        return nextRewrite.get().isEmpty();
    }

    /**
     * Holds every stream after it forwarded the next line that {@code matches}: the client receives nothing more
     * until {@link #release()}.
     */
    public void holdAfter(Predicate<JsonNode> matches) {
        hold.set(Optional.of(new Hold(matches, new CountDownLatch(1), new CountDownLatch(1))));
    }

    /** Waits until a stream is held by {@link #holdAfter}; false if none was within {@code timeout}. */
    public boolean awaitHeld(Duration timeout) throws InterruptedException {
        Optional<Hold> current = hold.get();
        return current.isPresent() && current.get().held().await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Lets held streams go on, and holds no more. */
    public void release() {
        hold.getAndSet(Optional.empty()).ifPresent(h -> h.released().countDown());
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
            boolean stream = exchange.getRequestURI().getPath().equals("/sync/stream");
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase())
                    && !(ndjson && stream && name.equalsIgnoreCase("accept"))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<InputStream> response;
            try {
                response = upstream.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
                return;
            } catch (IOException e) {
                exchange.sendResponseHeaders(502, -1);
                return;
            }
            response.headers().map().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            if (!stream) {
                try (InputStream in = response.body()) {
                    byte[] bytes = in.readAllBytes();
                    exchanges.add(new Exchange(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                        response.statusCode(), new String(bytes, StandardCharsets.UTF_8)));
                    exchange.sendResponseHeaders(response.statusCode(), bytes.length == 0 ? -1 : bytes.length);
                    exchange.getResponseBody().write(bytes);
                }
                return;
            }
            List<String> lines = new CopyOnWriteArrayList<>();
            String contentType = response.headers().firstValue("content-type").orElse("");
            streams.add(new Stream(parse(new String(body, StandardCharsets.UTF_8)), response.statusCode(),
                contentType, lines));
            exchange.sendResponseHeaders(response.statusCode(), 0);
            if (contentType.equals(BsonStream.CONTENT_TYPE)) {
                forwardDocuments(response.body(), exchange.getResponseBody(), lines);
            } else {
                forwardLines(response.body(), exchange.getResponseBody(), lines);
            }
        }
    }

    private void forwardLines(InputStream from, OutputStream to, List<String> lines) throws IOException {
        try (InputStream in = from; BufferedReader reader = new BufferedReader(
            new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String sent = rewrite(line);
                lines.add(sent);
                to.write((sent + "\n").getBytes(StandardCharsets.UTF_8));
                to.flush();
                holdIfMatches(sent);
            }
        }
    }

    /** As {@link #forwardLines} for a BSON stream: each document is recorded as the JSON line it stands for. */
    private void forwardDocuments(InputStream from, OutputStream to, List<String> lines) throws IOException {
        try (InputStream in = from) {
            for (byte[] document = BsonStream.next(in); document != null; document = BsonStream.next(in)) {
                String line = BsonStream.json(document);
                String sent = rewrite(line);
                lines.add(sent);
                to.write(sent.equals(line) ? document
                    : BsonLines.document(sent.getBytes(StandardCharsets.UTF_8)));
                to.flush();
                holdIfMatches(sent);
            }
        }
    }

    private void holdIfMatches(String line) throws IOException {
        Optional<Hold> current = hold.get();
        if (current.isEmpty() || !current.get().matches().test(parse(line))) {
            return;
        }
        current.get().held().countDown();
        try {
            current.get().released().await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while a stream was held", e);
        }
    }

    private String rewrite(String line) {
        Optional<Rewrite> pending = nextRewrite.get();
        if (pending.isEmpty() || line.isBlank()) {
            return line;
        }
        JsonNode parsed = parse(line);
        if (!pending.get().matches().test(parsed) || !nextRewrite.compareAndSet(pending, Optional.empty())) {
            return line;
        }
        try {
            return JSON.writeValueAsString(pending.get().rewrite().apply(parsed.deepCopy()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A line or body as JSON: an empty object for a blank one, {@code {"unparsed": text}} for one not JSON. */
    public static JsonNode parse(String text) {
        try {
            return text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
        } catch (IOException e) {
            return JSON.createObjectNode().put("unparsed", text);
        }
    }
}
