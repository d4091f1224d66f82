package io.tributary.client;

import static io.tributary.client.ServingPipeline.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.client.driver.SyncClient;
import io.tributary.client.expect.ClientBuckets;
import io.tributary.client.expect.RulesOverSource;
import io.tributary.client.expect.StreamAudit;
import io.tributary.client.expect.SyncedRow;
import io.tributary.client.proxy.SyncProxy;
import io.tributary.launcher.Main;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.TcpProxy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real client ({@code @powersync/node}) syncs correctly before, during and after a compaction: a client on a
 * slow link is in the middle of its first download when every row of its bucket is updated and {@code tributary
 * compact} folds the checkpoint it is downloading into a CLEAR. It ends up holding the rules over the source, and
 * every checkpoint the server completed on its stream holds every row with checksums that add up.
 */
@RealServices
class CompactionDuringSyncIT {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(180);
    private static final int USER = 5;
    private static final int TODOS = 1_500;
    /** Bytes per second from the api to the slow client: its first download takes tens of seconds. */
    private static final long SLOW_LINK = 30_000;

    @TempDir
    static Path dir;

    private static ServingPipeline pipeline;
    private static SyncClient watcher;
    private static SyncClient client;

    /** The client drivers open their databases before the pipeline loads the machine. */
    @BeforeAll
    static void startPipeline(TestServices services) throws Exception {
        watcher = client("compact-watcher");
        client = client("compact-during");
        pipeline = ServingPipeline.start(services, dir);
    }

    @AfterAll
    static void stopPipeline() {
        for (SyncClient driver : new SyncClient[] {client, watcher}) {
            if (driver != null) {
                driver.close();
            }
        }
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void aClientDownloadingWhileACompactionRunsCompletesOnlyCheckpointsThatHoldEveryRow() throws Exception {
        long list = ServingPipeline.firstListOf(USER);
        pipeline.source().execute("INSERT INTO todos SELECT 3000000 + t, " + list + ", '" + user(USER)
            + "', repeat('x', 400) || ' todo ' || t, false, t % 4, now() FROM generate_series(1, " + TODOS + ") AS t");
        String todos = "user_todos[\"" + user(USER) + "\"]";
        int rows = expected().get(todos).size();
        try (SyncProxy watcherProxy = SyncProxy.to(URI.create(pipeline.endpoint()));
             TcpProxy slow = slowLinkToApi();
             SyncProxy proxy = SyncProxy.to(URI.create("http://127.0.0.1:" + slow.port()))) {
            watcher.connect(watcherProxy.endpoint(), List.of(pipeline.tokens().token(user(USER))), null);
            watcher.awaitFirstSync(SYNC_TIMEOUT);
            updateEveryTodo("v1");
            awaitConverged(watcher);

            proxy.holdAfter(line -> line.path("data").path("bucket").asText().equals(todos));
            client.connect(proxy.endpoint(), List.of(pipeline.tokens().token(user(USER))), null);
            assertThat(proxy.awaitHeld(SYNC_TIMEOUT)).as("the client in the middle of its download").isTrue();
            updateEveryTodo("v2");
            awaitConverged(watcher);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), "compact", "--config",
                pipeline.configFile().toString());
            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("folded into CLEAR");
            proxy.release();

            awaitConverged(client);
            awaitConverged(watcher);
            List<StreamAudit.Completed> completed = StreamAudit.replay(proxy.streams().get(0));
            assertThat(completed).as("checkpoints completed on the slow client's stream").isNotEmpty()
                .allSatisfy(c -> {
                    assertThat(c.checksumMismatches()).as("checksums at %d", c.opId()).isEmpty();
                    assertThat(c.liveRows().get(todos)).as("todos at %d", c.opId()).isEqualTo(rows);
                });
        }
    }

    private static TcpProxy slowLinkToApi() {
        URI api = URI.create(pipeline.endpoint());
        TcpProxy proxy = TcpProxy.start(api.getHost(), api.getPort());
        proxy.setBandwidth(SLOW_LINK);
        return proxy;
    }

    private static void updateEveryTodo(String version) throws Exception {
        pipeline.source().execute("UPDATE todos SET description = description || ' " + version + "' WHERE owner_id = '"
            + user(USER) + "'");
    }

    private static SyncClient client(String name) {
        return SyncClient.start(name + "-user" + USER, ServingPipeline.CLIENT_SCHEMA,
            Path.of(System.getProperty("client.logs", dir.resolve("clients").toString())));
    }

    private static void awaitConverged(SyncClient client) {
        await("the client holding the rules over the source").atMost(SYNC_TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(ClientBuckets.of(client)).isEqualTo(expected()));
    }

    private static Map<String, Set<SyncedRow>> expected() throws Exception {
        String mine = "[\"" + user(USER) + "\"]";
        try (Connection c = pipeline.source().connect()) {
            return RulesOverSource.expected(c, ServingPipeline.RULES,
                name -> name.equals("directory[]") || name.endsWith(mine));
        }
    }
}
