package io.tributary.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A sync stream read the way a client reads it: POST, then NDJSON lines (or, asked for with {@code Accept}, BSON
 * documents), each parsed into the same JSON tree, on a reader thread.
 */
final class SyncClient implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    final int status;
    final String contentType;
    private final InputStream body;
    private final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile boolean ended;
    private volatile Exception failure;

    private SyncClient(HttpResponse<InputStream> response) {
        this.status = response.statusCode();
        this.contentType = response.headers().firstValue("Content-Type").orElse("");
        this.body = response.body();
        this.reader = new Thread(contentType.equals(BsonDocuments.CONTENT_TYPE) ? this::readBson : this::read,
            "sync-client");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static SyncClient open(URI uri, String authorization, String requestJson) throws Exception {
        return open(uri, authorization, requestJson, null);
    }

    /** Opens a stream whose request sends {@code accept} as its {@code Accept} header (none when null). */
    static SyncClient open(URI uri, String authorization, String requestJson, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(requestJson));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        return new SyncClient(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(JSON.readTree(line));
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            ended = true;
        }
    }

    private void readBson() {
        try (InputStream in = body) {
            for (JsonNode document = BsonDocuments.next(in); document != null; document = BsonDocuments.next(in)) {
                lines.add(document);
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            ended = true;
        }
    }

    /** The next line, failing after {@code timeout}. */
    JsonNode next(Duration timeout) throws InterruptedException {
        JsonNode line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("No line within " + timeout
                + (ended ? " (the stream ended, HTTP " + status + ", " + failure + ")" : ""));
        }
        return line;
    }

    /** Every line up to and including the first matching {@code last}. */
    List<JsonNode> until(Predicate<JsonNode> last, Duration timeout) throws InterruptedException {
        List<JsonNode> read = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode line = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            read.add(line);
            if (last.test(line)) {
                return read;
            }
        }
    }

    /** Every line up to the next {@code checkpoint_complete}. */
    List<JsonNode> untilComplete() throws InterruptedException {
        return until(line -> line.has("checkpoint_complete"), Duration.ofSeconds(60));
    }

    /** Whether the server ended the stream. */
    boolean ended() {
        return ended;
    }

    @Override
    public void close() throws Exception {
        body.close();
        reader.join(5_000);
    }
}
