package io.tributary.client;

import static io.tributary.client.ServingPipeline.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.client.driver.ClientException;
import io.tributary.client.driver.SyncClient;
import io.tributary.client.expect.ClientBuckets;
import io.tributary.client.expect.RulesOverSource;
import io.tributary.client.expect.StreamAudit;
import io.tributary.client.expect.SyncedRow;
import io.tributary.client.proxy.SyncProxy;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real client ({@code @powersync/node}) in the middle of downloading a large bucket when a newer checkpoint is
 * published: the server interrupts the download with the new checkpoint's diff (before the first
 * {@code checkpoint_complete}), the client goes on from where it is, and it ends up holding the newest state, the
 * rules over the source, with every completed checkpoint's checksums adding up. Once over a BSON stream (what the
 * client asks for) and once over NDJSON.
 *
 * <p>A proxy holds the stream after its first data line of the bucket until the newer checkpoint is published; the
 * bucket (about 14 MB) is several times what the socket buffers between the api and the proxy take, so the api is
 * still writing the older checkpoint's data when it learns of the newer one.
 */
@RealServices
class ClientDownloadInterruptionIT {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(180);
    private static final int TODOS = 12_000;
    private static final int TODO_BYTES = 1_000;
    private static final Duration HOLD_TIMEOUT = Duration.ofSeconds(25);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    private static ServingPipeline pipeline;

    @BeforeAll
    static void startPipeline(TestServices services) throws Exception {
        pipeline = ServingPipeline.start(services, dir);
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void overBsonTheClientEndsAtTheNewestCheckpoint() throws Exception {
        interruptDownload(7, SyncProxy::to, "application/vnd.powersync.bson-stream");
    }

    @Test
    void overNdjsonTheClientEndsAtTheNewestCheckpoint() throws Exception {
        interruptDownload(8, SyncProxy::toNdjson, "application/x-ndjson");
    }

    private static void interruptDownload(int user, Function<URI, SyncProxy> proxyOf,
                                          String contentType) throws Exception {
        long list = ServingPipeline.firstListOf(user);
        pipeline.source().execute("INSERT INTO todos SELECT " + (4_000_000 + user * 100_000) + " + t, " + list + ", '"
            + user(user) + "', repeat('x', " + TODO_BYTES + ") || ' todo ' || t, false, t % 4, now()"
            + " FROM generate_series(1, " + TODOS + ") AS t");
        String todos = "user_todos[\"" + user(user) + "\"]";
        await("the api serving the user's todos").atMost(SYNC_TIMEOUT).pollInterval(Duration.ofMillis(500))
            .until(() -> StreamSupport.stream(servedCheckpoint(user, "[{\"stream\":\"user_todos\"}]")
                .path("buckets").spliterator(), false).anyMatch(b -> b.path("count").asInt() >= TODOS));
        try (SyncClient client = client("interrupt-downloading", user);
             SyncProxy proxy = proxyOf.apply(URI.create(pipeline.endpoint()))) {
            proxy.holdAfter(line -> line.path("data").path("bucket").asText().equals(todos));
            client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(user))), null);
            assertThat(proxy.awaitHeld(SYNC_TIMEOUT)).as("the client in the middle of its download").isTrue();
            long downloading = proxy.streams().get(0).linesWith("checkpoint").get(0).get("checkpoint")
                .get("last_op_id").asLong();
            pipeline.source().execute("UPDATE todos SET description = 'newer', completed = true"
                + " WHERE owner_id = '" + user(user) + "' AND id % 1000 = 0");
            pipeline.source().execute("DELETE FROM todos WHERE owner_id = '" + user(user) + "' AND id % 1000 = 1");
            pipeline.source().execute("INSERT INTO todos SELECT " + (5_000_000 + user * 100_000) + " + t, " + list
                + ", '" + user(user) + "', 'newer todo ' || t, false, 1, now() FROM generate_series(1, 5) AS t");
            // Released once the api serves a newer checkpoint, well within the api's write timeout (the held stream
            // is a client that takes nothing).
            await("the api serving a checkpoint newer than the one being downloaded").atMost(HOLD_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> servedCheckpoint(user, "[]").path("last_op_id").asLong() > downloading);
            proxy.release();

            awaitConverged(client, user);
            assertThat(proxy.streams().get(0).contentType()).isEqualTo(contentType);
            List<JsonNode> lines = proxy.streams().get(0).lines().stream().map(SyncProxy::parse).toList();
            int diff = indexOf(lines, "checkpoint_diff");
            int complete = indexOf(lines, "checkpoint_complete");
            assertThat(complete).as("a checkpoint completed on the stream").isPositive();
            assertThat(diff).as("the newer checkpoint's diff reaches the client before its download completes")
                .isPositive().isLessThan(complete);
            assertThat(lines.get(complete).get("checkpoint_complete").get("last_op_id").asLong())
                .as("the first checkpoint completed is newer than the one whose download it interrupted")
                .isGreaterThan(downloading);
            int rows = expected(user).get(todos).size();
            List<StreamAudit.Completed> completed = StreamAudit.replay(proxy.streams().get(0));
            assertThat(completed).allSatisfy(c -> {
                assertThat(c.checksumMismatches()).as("checksums at %d", c.opId()).isEmpty();
                assertThat(c.liveRows().get(todos)).as("todos at %d", c.opId()).isEqualTo(rows);
            });
        }
    }

    /**
     * The checkpoint the api serves now, as the first line of a stream of {@code subscriptions} only tells (the
     * stream is closed after it).
     */
    private static JsonNode servedCheckpoint(int user, String subscriptions) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(pipeline.endpoint() + "/sync/stream"))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Token " + pipeline.tokens().token(user(user)))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"raw_data\":true,\"streams\":{\"include_defaults\":false,"
                + "\"subscriptions\":" + subscriptions + "}}"))
            .build();
        HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            return SyncProxy.parse(lines.readLine()).path("checkpoint");
        }
    }

    private static int indexOf(List<JsonNode> lines, String kind) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).has(kind)) {
                return i;
            }
        }
        return -1;
    }

    private static SyncClient client(String name, int user) {
        return SyncClient.start(name + "-user" + user, ServingPipeline.CLIENT_SCHEMA,
            Path.of(System.getProperty("client.logs", dir.resolve("clients").toString())));
    }

    private static void awaitConverged(SyncClient client, int user) {
        await("the client holding the rules over the source").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            // A client busy applying a large download may answer a query late: ask again until the deadline.
            .ignoreException(ClientException.class)
            .untilAsserted(() -> assertThat(ClientBuckets.of(client)).isEqualTo(expected(user)));
    }

    private static Map<String, Set<SyncedRow>> expected(int user) throws Exception {
        String mine = "[\"" + user(user) + "\"]";
        try (Connection c = pipeline.source().connect()) {
            return RulesOverSource.expected(c, ServingPipeline.RULES,
                name -> name.equals("directory[]") || name.endsWith(mine));
        }
    }
}
