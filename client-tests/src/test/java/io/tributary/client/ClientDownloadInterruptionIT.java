package io.tributary.client;

import static io.tributary.client.ServingPipeline.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.client.driver.SyncClient;
import io.tributary.client.expect.ClientBuckets;
import io.tributary.client.expect.RulesOverSource;
import io.tributary.client.expect.StreamAudit;
import io.tributary.client.expect.SyncedRow;
import io.tributary.client.proxy.SyncProxy;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
 * bucket (about 19 MB) is several times what the socket buffers between the api and the proxy take, so the api is
 * still writing the older checkpoint's data when it learns of the newer one.
 */
@RealServices
class ClientDownloadInterruptionIT {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(180);
    private static final Map<String, List<String>> SCHEMA = Map.of(
        "lists", List.of("owner_id", "name", "created_at"),
        "todos", List.of("list_id", "owner_id", "description", "completed", "priority", "created_at"),
        "users", List.of("name", "email"));
    private static final int TODOS = 16_000;
    private static final int TODO_BYTES = 1_200;

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
        try (SyncClient watcher = client("interrupt-watcher", user);
             SyncClient client = client("interrupt-downloading", user);
             SyncProxy watcherProxy = SyncProxy.to(URI.create(pipeline.endpoint()));
             SyncProxy proxy = proxyOf.apply(URI.create(pipeline.endpoint()))) {
            watcher.connect(watcherProxy.endpoint(), List.of(pipeline.tokens().token(user(user))), null);
            awaitConverged(watcher, user);

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
            // The watcher holding the newer state: the api has seen the newer checkpoint.
            awaitConverged(watcher, user);
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

    private static int indexOf(List<JsonNode> lines, String kind) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).has(kind)) {
                return i;
            }
        }
        return -1;
    }

    private static SyncClient client(String name, int user) {
        return SyncClient.start(name + "-user" + user, SCHEMA,
            Path.of(System.getProperty("client.logs", dir.resolve("clients").toString())));
    }

    private static void awaitConverged(SyncClient client, int user) {
        await("the client holding the rules over the source").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
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
