package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parameter lookups of one api process are read once per lookup per checkpoint, however many streams make
 * them, counted at the protocol level (statements reading {@code bucket_parameters} on the api's storage
 * connections): the streams of two users make two lookups, and a checkpoint that changes one of them costs one
 * statement for the lookups it changed and one read of that lookup.
 */
@RealServices
class SharedLookupsIT {

    private static final int STREAMS_PER_USER = 8;
    private static final Duration LINE = Duration.ofSeconds(60);

    @Test
    void aLookupIsReadOncePerCheckpointForEveryStreamOfTheProcess(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, ParameterBucketsIT.RULES);
             StatementCounter storage = StatementCounter.inFrontOf(f.db, "bucket_parameters")) {
            f.rows.upsert("list_members", "m1", "{\"id\":\"m1\",\"list_id\":\"l1\",\"user_id\":\"u1\"}");
            f.rows.upsert("list_members", "m9", "{\"id\":\"m9\",\"list_id\":\"l9\",\"user_id\":\"u2\"}");
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"list_id\":\"l1\"}");
            f.rows.upsert("todos", "t2", "{\"id\":\"t2\",\"list_id\":\"l2\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults(), storage.endpoint());

            List<SyncClient> u1 = new ArrayList<>();
            List<SyncClient> u2 = new ArrayList<>();
            try {
                for (int i = 0; i < STREAMS_PER_USER; i++) {
                    u1.add(SyncClient.open(f.uri("/sync/stream"), "Bearer " + f.token("u1"), "{\"raw_data\":true}"));
                    u2.add(SyncClient.open(f.uri("/sync/stream"), "Bearer " + f.token("u2"), "{\"raw_data\":true}"));
                }
                for (SyncClient client : u1) {
                    assertThat(buckets(client.untilComplete())).containsExactly("list_members[\"l1\"]");
                }
                for (SyncClient client : u2) {
                    assertThat(buckets(client.untilComplete())).containsExactly("list_members[\"l9\"]");
                }
                long first = storage.count();
                assertThat(first).as("lookup statements for %d streams of 2 users", 2 * STREAMS_PER_USER)
                    .isBetween(1L, 2L);

                f.rows.upsert("list_members", "m2", "{\"id\":\"m2\",\"list_id\":\"l2\",\"user_id\":\"u1\"}");
                f.rows.upsert("todos", "t9", "{\"id\":\"t9\",\"list_id\":\"l9\"}");
                Checkpoint next = f.checkpoint();
                for (SyncClient client : u1) {
                    assertThat(diffBuckets(until(client, next))).containsExactly("list_members[\"l2\"]");
                }
                for (SyncClient client : u2) {
                    assertThat(diffBuckets(until(client, next))).containsExactly("list_members[\"l9\"]");
                }
                assertThat(storage.count() - first).as("the changed lookups, then u1's lookup again")
                    .isEqualTo(2);
            } finally {
                for (SyncClient client : u1) {
                    client.close();
                }
                for (SyncClient client : u2) {
                    client.close();
                }
            }
        }
    }

    private static List<String> buckets(List<JsonNode> lines) {
        List<String> buckets = new ArrayList<>();
        lines.get(0).get("checkpoint").get("buckets").forEach(b -> buckets.add(b.get("bucket").asText()));
        return buckets;
    }

    private static List<String> diffBuckets(List<JsonNode> lines) {
        List<String> buckets = new ArrayList<>();
        lines.stream().filter(l -> l.has("checkpoint_diff")).reduce((a, b) -> b).orElseThrow()
            .get("checkpoint_diff").get("updated_buckets").forEach(b -> buckets.add(b.get("bucket").asText()));
        return buckets;
    }

    private static List<JsonNode> until(SyncClient client, Checkpoint checkpoint) throws InterruptedException {
        return client.until(line -> line.has("checkpoint_complete")
            && line.get("checkpoint_complete").get("last_op_id").asLong() >= checkpoint.opId(), LINE);
    }
}
