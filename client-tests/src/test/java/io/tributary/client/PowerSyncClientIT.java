package io.tributary.client;

import static io.tributary.client.ServingPipeline.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.client.auth.TestTokens;
import io.tributary.client.backend.UploadBackend;
import io.tributary.client.driver.ClientStatus;
import io.tributary.client.driver.SyncClient;
import io.tributary.client.expect.ClientBuckets;
import io.tributary.client.expect.RulesOverSource;
import io.tributary.client.expect.SyncedRow;
import io.tributary.client.proxy.SyncProxy;
import io.tributary.launcher.Main;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real PowerSync client (the Node SDK with its Rust sync core) against a running pipeline's sync API: what a
 * client downloads equals the sync rules over the source, and it stays so through live changes, moves, reconnects,
 * corrupted checksums, token refreshes, priorities and its own uploads. Every client talks through a
 * {@link SyncProxy} that records the protocol lines it received. One pipeline serves every scenario; each
 * scenario uses users of its own, so they do not see each other's changes.
 */
@RealServices
class PowerSyncClientIT {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    private static ServingPipeline pipeline;

    private final List<AutoCloseable> opened = new ArrayList<>();

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

    @AfterEach
    void closeClients() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void theInitialSyncOfAUsersBucketsEqualsTheRulesOverTheSource() throws Exception {
        SyncProxy proxy = proxy();
        SyncClient client = client("initial", 1);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(1))), null);

        client.awaitFirstSync(SYNC_TIMEOUT);

        Map<String, Set<SyncedRow>> expected = expected(1);
        assertThat(expected).containsOnlyKeys("directory[]", bucket("user_lists", 1), bucket("user_todos", 1));
        assertThat(ClientBuckets.of(client)).isEqualTo(expected);
        assertThat(client.query("SELECT count(*) AS n FROM todos").get(0).path("n").asInt())
            .isEqualTo(expected.get(bucket("user_todos", 1)).size());
        assertThat(proxy.streams()).first().satisfies(stream -> {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.request().path("raw_data").asBoolean()).isTrue();
        });
    }

    @Test
    void aDevelopmentTokenOfTheTokenCommandSyncs() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), "token", "--config",
            pipeline.configFile().toString(), "--user", user(12));
        assertThat(code).as(err.toString()).isZero();

        SyncClient client = client("token-command", 12);
        client.connect(proxy().endpoint(), List.of(out.toString().trim()), null);

        client.awaitFirstSync(SYNC_TIMEOUT);
        assertThat(ClientBuckets.of(client)).isEqualTo(expected(12));
    }

    @Test
    void liveInsertsUpdatesAndDeletesArrive() throws Exception {
        SyncClient client = connected("live", 2, proxy());
        long list = ServingPipeline.firstListOf(2);
        List<Long> todos = todosOf(2);

        pipeline.source().execute(
            "INSERT INTO todos VALUES (900002, " + list + ", '" + user(2) + "', 'a new todo', false, 1, now())",
            "UPDATE todos SET description = 'changed', completed = true WHERE id = " + todos.get(0),
            "DELETE FROM todos WHERE id = " + todos.get(1));

        awaitConverged(client, 2);
        assertThat(client.query("SELECT description FROM todos WHERE id = ?", "900002"))
            .extracting(row -> row.path("description").asText()).containsExactly("a new todo");
        assertThat(client.query("SELECT description, completed FROM todos WHERE id = ?", todos.get(0).toString()))
            .extracting(row -> row.path("description").asText() + "/" + row.path("completed").asText())
            .as("a true boolean, as SQLite holds it").containsExactly("changed/1");
        assertThat(client.query("SELECT id FROM todos WHERE id = ?", todos.get(1).toString())).isEmpty();
    }

    @Test
    void aRowMovesBetweenBuckets() throws Exception {
        SyncClient from = connected("move-from", 3, proxy());
        SyncClient to = connected("move-to", 4, proxy());
        String list = Long.toString(ServingPipeline.firstListOf(3));
        assertThat(from.query("SELECT id FROM lists WHERE id = ?", list)).hasSize(1);

        pipeline.source().execute("UPDATE lists SET owner_id = '" + user(4) + "' WHERE id = " + list);

        awaitConverged(from, 3);
        awaitConverged(to, 4);
        assertThat(from.query("SELECT id FROM lists WHERE id = ?", list)).isEmpty();
        assertThat(to.query("SELECT owner_id FROM lists WHERE id = ?", list))
            .extracting(row -> row.path("owner_id").asText()).containsExactly(user(4));
    }

    @Test
    void aReconnectResumesWithoutDownloadingAgain() throws Exception {
        SyncProxy proxy = proxy();
        SyncClient client = connected("resume", 5, proxy);
        long todo = todosOf(5).get(0);
        client.disconnect();
        int before = proxy.streams().size();

        pipeline.source().execute("UPDATE todos SET description = 'changed offline' WHERE id = " + todo);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(5))), null);

        awaitConverged(client, 5);
        assertThat(proxy.streams()).hasSizeGreaterThan(before);
        SyncProxy.Stream resumed = proxy.streams().get(before);
        assertThat(resumed.request().path("buckets")).as("the buckets the client resumes")
            .extracting(b -> b.path("name").asText())
            .containsExactlyInAnyOrder("directory[]", bucket("user_lists", 5), bucket("user_todos", 5));
        assertThat(resumed.request().path("buckets")).allSatisfy(b ->
            assertThat(Long.parseLong(b.path("after").asText())).as("resumed after " + b).isPositive());
        assertThat(proxy.streams().subList(before, proxy.streams().size()).stream()
            .flatMap(stream -> ops(stream).stream()))
            .as("ops downloaded again after the reconnect")
            .extracting(op -> op.path("object_id").asText()).containsOnly(Long.toString(todo));
    }

    @Test
    void aCorruptedChecksumMakesTheClientDownloadTheBucketAgain() throws Exception {
        SyncProxy proxy = proxy();
        String todos = bucket("user_todos", 6);
        proxy.rewriteNext(line -> line.has("checkpoint"), line -> {
            for (JsonNode b : line.path("checkpoint").path("buckets")) {
                if (b.path("bucket").asText().equals(todos)) {
                    ((ObjectNode) b).put("checksum", b.path("checksum").asLong() + 1);
                }
            }
            return line;
        });

        SyncClient client = connected("checksum", 6, proxy);

        assertThat(proxy.rewritten()).isTrue();
        assertThat(proxy.streams()).as("streams: the corrupted one, then a new download").hasSizeGreaterThan(1);
        int rows = expected(6).get(todos).size();
        long downloaded = proxy.streams().stream().flatMap(stream -> ops(stream).stream())
            .filter(op -> op.path("bucket").asText().equals(todos)).count();
        assertThat(downloaded).as("ops of " + todos + " downloaded over all streams")
            .isGreaterThanOrEqualTo(2L * rows);
    }

    @Test
    void anExpiredOrWrongTokenGets401AndTheClientFetchesANewOne() throws Exception {
        SyncProxy proxy = proxy();
        TestTokens otherKey = TestTokens.newKey(pipeline.tokens().kid(), ServingPipeline.AUDIENCE);
        SyncClient client = client("auth", 7);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().expiredToken(user(7)),
            otherKey.token(user(7)), pipeline.tokens().token(user(7))), null);

        client.awaitFirstSync(SYNC_TIMEOUT);
        awaitConverged(client, 7);

        assertThat(proxy.streams()).extracting(SyncProxy.Stream::status).startsWith(401, 401).contains(200);
        ClientStatus status = client.status();
        assertThat(status.credentialsFetched()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aTokenAboutToExpireIsReplacedWhileTheClientStaysInSync() throws Exception {
        SyncProxy proxy = proxy();
        Duration lifetime = Duration.ofSeconds(15);
        SyncClient client = client("token-refresh", 13);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(13), lifetime),
            pipeline.tokens().token(user(13))), null);
        client.awaitFirstSync(SYNC_TIMEOUT);
        long expired = System.nanoTime() + lifetime.plusSeconds(1).toNanos();

        await("the short token expired").atMost(lifetime.plusSeconds(5)).until(() -> System.nanoTime() > expired);
        long todo = todosOf(13).get(0);
        pipeline.source().execute("UPDATE todos SET description = 'after the first token' WHERE id = " + todo);

        awaitConverged(client, 13);
        assertThat(proxy.streams().get(0).linesWith("token_expires_in")).as("the first stream's token lifetime")
            .isNotEmpty().allSatisfy(line -> assertThat(line.path("token_expires_in").asLong())
                .isLessThanOrEqualTo(lifetime.toSeconds()));
        assertThat(proxy.streams()).as("streams: the short token's, then the new token's").hasSizeGreaterThan(1)
            .allSatisfy(stream -> assertThat(stream.status()).isEqualTo(200));
        assertThat(client.status().credentialsFetched()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void twoUsersSeeOnlyTheirOwnBuckets() throws Exception {
        SyncClient first = connected("first-user", 8, proxy());
        SyncClient second = connected("second-user", 9, proxy());

        assertThat(ClientBuckets.names(first))
            .containsExactlyInAnyOrder("directory[]", bucket("user_lists", 8), bucket("user_todos", 8));
        assertThat(ClientBuckets.names(second))
            .containsExactlyInAnyOrder("directory[]", bucket("user_lists", 9), bucket("user_todos", 9));
        assertThat(first.query("SELECT DISTINCT owner_id FROM lists UNION SELECT DISTINCT owner_id FROM todos"))
            .extracting(row -> row.path("owner_id").asText()).containsExactly(user(8));
        assertThat(second.query("SELECT DISTINCT owner_id FROM lists UNION SELECT DISTINCT owner_id FROM todos"))
            .extracting(row -> row.path("owner_id").asText()).containsExactly(user(9));
    }

    @Test
    void prioritiesGivePartialCheckpoints() throws Exception {
        SyncProxy proxy = proxy();
        proxy.holdAfter(line -> line.has("partial_checkpoint_complete"));
        SyncClient client = client("priorities", 10);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(10))), null);

        assertThat(proxy.awaitHeld(SYNC_TIMEOUT)).as("a partial checkpoint reached the client").isTrue();
        ClientStatus partial = client.awaitFirstSync(1, SYNC_TIMEOUT);
        assertThat(partial.hasSynced()).as("a complete sync, while only the partial one arrived").isFalse();
        Map<String, Set<SyncedRow>> expected = expected(10);
        assertThat(ClientBuckets.of(client)).as("what the client applied from the partial checkpoint")
            .containsEntry(bucket("user_lists", 10), expected.get(bucket("user_lists", 10)));
        assertThat(client.query("SELECT id FROM lists")).hasSize(expected.get(bucket("user_lists", 10)).size());
        assertThat(client.query("SELECT id FROM todos")).isEmpty();

        proxy.release();

        client.awaitFirstSync(SYNC_TIMEOUT);
        awaitConverged(client, 10);
        SyncProxy.Stream stream = proxy.streams().get(0);
        JsonNode checkpoint = stream.linesWith("checkpoint").get(0).path("checkpoint");
        assertThat(StreamSupport.stream(checkpoint.path("buckets").spliterator(), false)
            .map(b -> b.path("bucket").asText() + "=" + b.path("priority").asInt()))
            .containsExactlyInAnyOrder(bucket("user_lists", 10) + "=1", bucket("user_todos", 10) + "=3",
                "directory[]=3");
        assertThat(stream.linesWith("partial_checkpoint_complete")).first()
            .satisfies(line -> assertThat(line.at("/partial_checkpoint_complete/priority").asInt()).isEqualTo(1));
    }

    @Test
    void anUploadIsConfirmedByItsWriteCheckpoint() throws Exception {
        SyncProxy proxy = proxy();
        UploadBackend backend = UploadBackend.start(pipeline.source(), Set.of("lists", "todos"));
        opened.add(backend);
        SyncClient client = client("upload", 11);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(11))), backend.uploadUrl());
        client.awaitFirstSync(SYNC_TIMEOUT);

        client.execute("INSERT INTO lists (id, owner_id, name, created_at) VALUES (?, ?, ?, ?)",
            "900011", user(11), "written on the client", "2026-02-01 00:00:00+00");

        // The client shows its own write until a checkpoint covers its write checkpoint; then the row as synced,
        // whose timestamp is in the source's canonical encoding rather than the text the client wrote.
        await("the upload committed and a checkpoint with its write checkpoint applied").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                Optional<JsonNode> synced = bucketRow(client, bucket("user_lists", 11), "900011");
                assertThat(synced).as("the uploaded row in the client's bucket").isPresent();
                String createdAt = SyncProxy.parse(synced.get().path("data").asText()).path("created_at").asText();
                assertThat(createdAt).isNotEqualTo("2026-02-01 00:00:00+00");
                assertThat(client.query("SELECT created_at FROM lists WHERE id = ?", "900011"))
                    .extracting(row -> row.path("created_at").asText()).containsExactly(createdAt);
            });
        assertThat(client.query("SELECT id FROM ps_crud")).as("pending uploads").isEmpty();
        assertThat(client.status().uploads()).isEqualTo(1);
        assertThat(backend.committedTransactions()).isEqualTo(1);
        awaitConverged(client, 11);
        SyncProxy.Exchange writeCheckpoint = proxy.exchanges().stream()
            .filter(e -> e.pathAndQuery().startsWith("/write-checkpoint2.json")).findFirst().orElseThrow();
        assertThat(writeCheckpoint.status()).isEqualTo(200);
        String id = SyncProxy.parse(writeCheckpoint.body()).at("/data/write_checkpoint").asText();
        assertThat(id).isNotEmpty();
        assertThat(proxy.streams().stream().flatMap(stream -> stream.lines().stream()).map(SyncProxy::parse)
            .map(line -> line.has("checkpoint_diff") ? line.path("checkpoint_diff") : line.path("checkpoint"))
            .map(line -> line.path("write_checkpoint").asText()))
            .as("write checkpoints the stream delivered").contains(id);
    }

    @Test
    void updatesAndDeletesUploadThroughTheBackendAndSyncBack() throws Exception {
        UploadBackend backend = UploadBackend.start(pipeline.source(), Set.of("lists", "todos"));
        opened.add(backend);
        SyncProxy proxy = proxy();
        SyncClient client = client("upload-changes", 15);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(15))), backend.uploadUrl());
        client.awaitFirstSync(SYNC_TIMEOUT);
        List<Long> todos = todosOf(15);
        String renamed = todos.get(0).toString();
        String deleted = todos.get(1).toString();

        client.execute("UPDATE todos SET description = ? WHERE id = ?", "renamed on the client", renamed);
        client.execute("DELETE FROM todos WHERE id = ?", deleted);

        await("both writes in the source").atMost(SYNC_TIMEOUT).pollInterval(Duration.ofMillis(250))
            .until(() -> backend.committedTransactions() == 2);
        awaitConverged(client, 15);
        assertThat(bucketRow(client, bucket("user_todos", 15), renamed)).as("the renamed todo, as synced")
            .hasValueSatisfying(row -> assertThat(SyncProxy.parse(row.path("data").asText())
                .path("description").asText()).isEqualTo("renamed on the client"));
        assertThat(bucketRow(client, bucket("user_todos", 15), deleted)).as("the deleted todo").isEmpty();
        assertThat(client.query("SELECT id FROM ps_crud")).as("pending uploads").isEmpty();
    }

    @Test
    void aClientBehindACompactionReadsTheClearAndConverges() throws Exception {
        SyncProxy behindProxy = proxy();
        SyncClient behind = connected("compact-behind", 16, behindProxy);
        behind.disconnect();
        SyncClient watcher = connected("compact-watcher", 16, proxy());
        for (int round = 0; round < 3; round++) {
            pipeline.source().execute("UPDATE todos SET description = 'round " + round + "' WHERE owner_id = '"
                + user(16) + "'");
            awaitConverged(watcher, 16);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), "compact", "--config",
            pipeline.configFile().toString());

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("folded into CLEAR");
        int before = behindProxy.streams().size();
        behind.connect(behindProxy.endpoint(), List.of(pipeline.tokens().token(user(16))), null);
        awaitConverged(behind, 16);
        assertThat(behindProxy.streams().subList(before, behindProxy.streams().size()).stream()
            .flatMap(stream -> ops(stream).stream()))
            .as("the resumed client reads the CLEAR of its todos bucket")
            .anySatisfy(op -> assertThat(op.path("op").asText() + " " + op.path("bucket").asText())
                .isEqualTo("CLEAR " + bucket("user_todos", 16)));
        SyncProxy freshProxy = proxy();
        connected("compact-fresh", 16, freshProxy);
        assertThat(ops(freshProxy.streams().get(0))).as("a fresh client downloads the compacted bucket")
            .filteredOn(op -> op.path("bucket").asText().equals(bucket("user_todos", 16)))
            .first().satisfies(op -> assertThat(op.path("op").asText()).isEqualTo("CLEAR"));
        awaitConverged(watcher, 16);
    }

    @Test
    void aBucketOfManyPagesSyncsWhole() throws Exception {
        long list = ServingPipeline.firstListOf(14);
        pipeline.source().execute("INSERT INTO todos SELECT 1000000 + t, " + list + ", '" + user(14)
            + "', 'todo ' || t, t % 2 = 0, t % 4, now() FROM generate_series(1, 2500) AS t");
        SyncProxy proxy = proxy();

        SyncClient client = connected("pages", 14, proxy);

        String todos = bucket("user_todos", 14);
        assertThat(expected(14).get(todos)).hasSizeGreaterThan(2500);
        assertThat(proxy.streams().stream().flatMap(stream -> stream.linesWith("data").stream())
            .map(line -> line.path("data")).filter(data -> data.path("bucket").asText().equals(todos)))
            .as("data lines of " + todos).hasSizeGreaterThan(1)
            .anySatisfy(data -> assertThat(data.path("has_more").asBoolean()).isTrue());
        assertThat(client.query("SELECT count(*) AS n FROM todos").get(0).path("n").asInt())
            .isEqualTo(expected(14).get(todos).size());
    }

    private static Optional<JsonNode> bucketRow(SyncClient client, String bucket, String id) {
        return client.query("SELECT o.data AS data FROM ps_oplog o JOIN ps_buckets b ON b.id = o.bucket"
            + " WHERE b.name = ? AND o.row_id = ?", bucket, id).stream().findFirst();
    }

    @Test
    void aListMembershipGivesTheUserTheListsTodosAndItsRemovalTakesThemAway() throws Exception {
        SyncClient client = connected("membership", 17, proxy());
        long shared = ServingPipeline.firstListOf(7);
        List<Long> sharedTodos = new ArrayList<>();
        try (Connection c = pipeline.source().connect();
             var rs = c.createStatement().executeQuery("SELECT id FROM todos WHERE list_id = " + shared)) {
            while (rs.next()) {
                sharedTodos.add(rs.getLong(1));
            }
        }
        assertThat(sharedTodos).as("todos of the shared list").isNotEmpty();
        String bucket = "shared_todos[" + shared + "]";

        pipeline.source().execute("INSERT INTO list_members VALUES (900017, " + shared + ", '" + user(17) + "')");

        await("the shared list's todos on the member's client").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(
                client.query("SELECT id FROM todos WHERE list_id = ?", Long.toString(shared)))
                .extracting(row -> row.path("id").asLong()).containsExactlyInAnyOrderElementsOf(sharedTodos));
        assertThat(client.query("SELECT name FROM ps_buckets WHERE name = ?", bucket)).hasSize(1);

        pipeline.source().execute("DELETE FROM list_members WHERE id = 900017");

        await("the shared list's todos gone from the former member's client").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(
                client.query("SELECT id FROM todos WHERE list_id = ?", Long.toString(shared))).isEmpty());
        awaitConverged(client, 17);
    }

    /** A client of user {@code n} through {@code proxy}, after its first complete sync. */
    private SyncClient connected(String name, int n, SyncProxy proxy) throws Exception {
        SyncClient client = client(name, n);
        client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(n))), null);
        client.awaitFirstSync(SYNC_TIMEOUT);
        awaitConverged(client, n);
        return client;
    }

    private SyncClient client(String name, int n) {
        SyncClient client = SyncClient.start(name + "-user" + n, ServingPipeline.CLIENT_SCHEMA,
            Path.of(System.getProperty("client.logs", dir.resolve("clients").toString())));
        opened.add(client);
        return client;
    }

    private SyncProxy proxy() {
        SyncProxy proxy = SyncProxy.to(URI.create(pipeline.endpoint()));
        opened.add(proxy);
        return proxy;
    }

    private static void awaitConverged(SyncClient client, int n) {
        await("the client of user " + n + " holding the rules over the source").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(ClientBuckets.of(client)).isEqualTo(expected(n)));
    }

    private static Map<String, Set<SyncedRow>> expected(int n) throws Exception {
        String mine = "[\"" + user(n) + "\"]";
        try (Connection c = pipeline.source().connect()) {
            return RulesOverSource.expected(c, ServingPipeline.RULES,
                name -> name.equals("directory[]") || name.endsWith(mine));
        }
    }

    private static String bucket(String definition, int n) {
        return definition + "[\"" + user(n) + "\"]";
    }

    private static List<Long> todosOf(int n) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = pipeline.source().connect();
             var rs = c.createStatement().executeQuery(
                 "SELECT id FROM todos WHERE owner_id = '" + user(n) + "' ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        assertThat(ids).as("todos of user " + n).hasSizeGreaterThan(2);
        return ids;
    }

    /** Every op entry of a stream's data lines, each with its bucket. */
    private static List<JsonNode> ops(SyncProxy.Stream stream) {
        List<JsonNode> ops = new ArrayList<>();
        for (JsonNode line : stream.linesWith("data")) {
            String bucket = line.path("data").path("bucket").asText();
            for (JsonNode op : line.path("data").path("data")) {
                ops.add(((ObjectNode) op.deepCopy()).put("bucket", bucket));
            }
        }
        return ops;
    }
}
