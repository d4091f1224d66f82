package io.tributary.client;

import static io.tributary.client.ServingPipeline.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.client.driver.SyncClient;
import io.tributary.client.expect.ClientBuckets;
import io.tributary.client.expect.PowerSyncBucketSets;
import io.tributary.client.expect.RulesOverSource;
import io.tributary.client.expect.SyncedRow;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code IN} in parameter queries that read a table, end to end: the real client, connected with client parameters,
 * syncs exactly the buckets PowerSync's evaluator ({@code @powersync/service-sync-rules}) gives its request over the
 * source, and their rows are the sync rules over the source. Both forms of PowerSync's expanding lookups: a column
 * in a request array (client parameters, as an array and as a string holding a JSON array) and the user in an array
 * column; a change of that column moves buckets in and out of a connected client.
 */
@RealServices
class InParameterQueriesIT {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  picked_lists:",
        "    parameters: SELECT id AS list_id FROM lists WHERE id IN request.parameters() ->> 'list_ids'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  member_lists:",
        "    parameters: SELECT id AS list_id FROM lists WHERE request.user_id() IN members",
        "    data:",
        "      - SELECT id, description, list_id FROM todos WHERE list_id = bucket.list_id",
        "");
    private static final Map<String, List<String>> SCHEMA = Map.of(
        "todos", List.of("list_id", "owner_id", "description", "completed", "priority", "created_at"));

    @TempDir
    static Path dir;

    private static ServingPipeline pipeline;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startPipeline(TestServices services) throws Exception {
        // The first list of user n has users n + 1 and n + 2 as members.
        List<String> sql = new ArrayList<>();
        sql.add("ALTER TABLE public.lists ADD COLUMN members text[] NOT NULL DEFAULT '{}'");
        for (int n = 1; n + 2 <= ServingPipeline.USERS; n++) {
            sql.add("UPDATE public.lists SET members = ARRAY['" + user(n + 1) + "', '" + user(n + 2) + "'] WHERE id = "
                + ServingPipeline.firstListOf(n));
        }
        pipeline = ServingPipeline.start(services, dir, RULES, sql.toArray(String[]::new));
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
    void aClientWithRequestArraysSyncsPowerSyncsBuckets() throws Exception {
        long first = ServingPipeline.firstListOf(5);
        long other = ServingPipeline.firstListOf(9);
        ObjectNode params = JSON.createObjectNode();
        params.putArray("list_ids").add(first).add(other).add(first).add(987_654_321L);

        SyncClient client = connected("in-array", 6, params);

        Set<String> expected = powerSyncBuckets(6, params);
        assertThat(expected).as("PowerSync's buckets for the request").contains("picked_lists[" + first + "]",
            "picked_lists[" + other + "]").contains("member_lists[" + first + "]");
        assertThat(ClientBuckets.names(client)).isEqualTo(expected);
        assertThat(ClientBuckets.of(client)).isEqualTo(rows(expected));
    }

    @Test
    void aStringHoldingAJsonArrayIsExpandedToo() throws Exception {
        long list = ServingPipeline.firstListOf(11);
        ObjectNode params = JSON.createObjectNode().put("list_ids", "[" + list + "]");

        SyncClient client = connected("in-text", 12, params);

        Set<String> expected = powerSyncBuckets(12, params);
        assertThat(expected).contains("picked_lists[" + list + "]");
        assertThat(ClientBuckets.names(client)).isEqualTo(expected);
        assertThat(ClientBuckets.of(client)).isEqualTo(rows(expected));
    }

    @Test
    void aChangedArrayColumnMovesBucketsInAndOut() throws Exception {
        ObjectNode params = JSON.createObjectNode();
        params.putArray("list_ids");
        SyncClient client = connected("in-column", 14, params);
        Set<String> before = powerSyncBuckets(14, params);
        assertThat(ClientBuckets.names(client)).isEqualTo(before);
        long gained = ServingPipeline.firstListOf(3);
        String lost = before.stream().filter(b -> b.startsWith("member_lists[")).findFirst().orElseThrow();

        pipeline.source().execute(
            "UPDATE lists SET members = array_append(members, '" + user(14) + "') WHERE id = " + gained,
            "UPDATE lists SET members = array_remove(members, '" + user(14) + "') WHERE members @> ARRAY['"
                + user(14) + "'] AND id <> " + gained);

        Set<String> after = powerSyncBuckets(14, params);
        assertThat(after).as("PowerSync's buckets after the change").doesNotContain(lost)
            .contains("member_lists[" + gained + "]");
        await("the client's buckets after the change").atMost(SYNC_TIMEOUT).pollInterval(Duration.ofMillis(250))
            .untilAsserted(() -> assertThat(ClientBuckets.names(client)).isEqualTo(after));
        await("the client's rows after the change").atMost(SYNC_TIMEOUT).pollInterval(Duration.ofMillis(250))
            .untilAsserted(() -> assertThat(ClientBuckets.of(client)).isEqualTo(rows(after)));
    }

    private SyncClient connected(String name, int user, ObjectNode params) {
        SyncClient client = SyncClient.start(name + "-user" + user, SCHEMA,
            Path.of(System.getProperty("client.logs", "target/client-logs")));
        opened.add(client);
        client.connect(pipeline.endpoint(), List.of(pipeline.tokens().token(user(user))), null, params);
        client.awaitFirstSync(SYNC_TIMEOUT);
        return client;
    }

    private static Set<String> powerSyncBuckets(int user, ObjectNode params) throws Exception {
        try (Connection c = pipeline.source().connect()) {
            return PowerSyncBucketSets.of(RULES, c, List.of("lists"),
                JSON.createObjectNode().put("sub", user(user)), params);
        }
    }

    /** The rows of {@code buckets} (those with rows) as the sync rules give them over the source. */
    private static Map<String, Set<SyncedRow>> rows(Set<String> buckets) throws Exception {
        try (Connection c = pipeline.source().connect()) {
            return new TreeMap<>(RulesOverSource.expected(c, RULES, buckets::contains));
        }
    }
}
