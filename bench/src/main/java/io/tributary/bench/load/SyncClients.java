package io.tributary.bench.load;

import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.DevelopmentTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Opens simulated sync clients against one API process: {@code POST /sync/stream} over HTTP/1.1 with
 * {@code java.net.http}, one connection per stream, every stream's lines read on a small shared pool. Tokens are
 * development tokens of the bench's key, one per user. Thread-safe.
 */
final class SyncClients implements AutoCloseable {

    /** The audience of the bench's tokens. */
    static final String AUDIENCE = "tributary-bench";

    private final ExecutorService lines = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "bench-sync-client");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(30)).executor(lines).build();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final OctetSequenceKey key;
    private final URI uri;

    SyncClients(OctetSequenceKey key, int port) {
        this.key = key;
        this.uri = URI.create("http://127.0.0.1:" + port + "/sync/stream");
    }

    /** Opens a stream of {@code user} holding no buckets yet. */
    SyncStream open(String user, String clientId) {
        SyncStream stream = new SyncStream();
        String token = tokens.computeIfAbsent(user, u -> DevelopmentTokens.mint(key, AUDIENCE, u, Duration.ofHours(2),
            Instant.now()));
        HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", "Token " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"buckets\":[],\"raw_data\":true,\"client_id\":\""
                + clientId + "\"}"))
            .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.fromSubscriber(stream)).whenComplete((response, e) -> {
            if (e != null) {
                stream.onError(e);
            } else if (response.statusCode() != 200) {
                stream.onError(new IOException("HTTP " + response.statusCode()));
            }
        });
        return stream;
    }

    @Override
    public void close() {
        lines.shutdownNow();
    }
}
