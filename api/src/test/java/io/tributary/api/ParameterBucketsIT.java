package io.tributary.api;

import static io.tributary.api.SyncStreamIT.ops;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Buckets from parameter queries that read a table: a client's bucket set is resolved through the lookups stored at
 * each checkpoint, so adding or removing a membership row reaches a connected client as a {@code checkpoint_diff}
 * with the bucket added or removed. The claims join through {@code request.jwt()} and the {@code parameters} claim.
 */
@RealServices
class ParameterBucketsIT {

    static final String RULES = """
        bucket_definitions:
          list_members:
            parameters: SELECT list_id FROM list_members WHERE user_id = request.user_id()
            data:
              - SELECT * FROM todos WHERE list_id = bucket.list_id
          org_lists:
            parameters: >-
              SELECT id AS list_id FROM lists
              WHERE org_id = request.jwt() ->> 'org' AND team = token_parameters.team
            data:
              - SELECT * FROM todos WHERE list_id = bucket.list_id
        """;

    private static final Duration LINE = Duration.ofSeconds(30);

    @Test
    void aMembershipChangeAddsAndRemovesTheListsBucket(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, RULES)) {
            f.rows.upsert("list_members", "m1", "{\"id\":\"m1\",\"list_id\":\"l1\",\"user_id\":\"u1\"}");
            f.rows.upsert("list_members", "m9", "{\"id\":\"m9\",\"list_id\":\"l2\",\"user_id\":\"u9\"}");
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"list_id\":\"l1\"}");
            f.rows.upsert("todos", "t2", "{\"id\":\"t2\",\"list_id\":\"l2\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Bearer " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> first = client.untilComplete();
                assertThat(first.get(0).get("checkpoint").get("buckets")).extracting(b -> b.get("bucket").asText())
                    .containsExactly("list_members[\"l1\"]");
                assertThat(ops(first, "list_members[\"l1\"]")).extracting(op -> op.get("object_id").asText())
                    .containsExactly("t1");

                f.rows.upsert("list_members", "m2", "{\"id\":\"m2\",\"list_id\":\"l2\",\"user_id\":\"u1\"}");
                Checkpoint added = f.checkpoint();
                List<JsonNode> next = until(client, added);
                JsonNode diff = lastDiff(next);
                assertThat(diff.get("updated_buckets")).extracting(b -> b.get("bucket").asText())
                    .containsExactly("list_members[\"l2\"]");
                assertThat(diff.get("removed_buckets")).isEmpty();
                assertThat(ops(next, "list_members[\"l2\"]")).extracting(op -> op.get("object_id").asText())
                    .containsExactly("t2");

                f.rows.delete("list_members", "m1");
                Checkpoint removed = f.checkpoint();
                diff = lastDiff(until(client, removed));
                assertThat(diff.get("removed_buckets")).extracting(JsonNode::asText)
                    .containsExactly("list_members[\"l1\"]");
                assertThat(diff.get("updated_buckets")).isEmpty();
            }
        }
    }

    @Test
    void bucketsJoinThroughJwtClaimsAndTheParametersClaim(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"org_id\":7,\"team\":\"red\"}");
            f.rows.upsert("lists", "l2", "{\"id\":\"l2\",\"org_id\":7,\"team\":\"blue\"}");
            f.rows.upsert("lists", "l3", "{\"id\":\"l3\",\"org_id\":8,\"team\":\"red\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            String token = f.token("u1", "{\"org\":7,\"parameters\":{\"team\":\"red\"}}");
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Bearer " + token,
                "{\"raw_data\":true}")) {
                List<JsonNode> first = client.untilComplete();
                assertThat(first.get(0).get("checkpoint").get("buckets")).extracting(b -> b.get("bucket").asText())
                    .containsExactly("org_lists[\"l1\"]");
            }
        }
    }

    private static List<JsonNode> until(SyncClient client, Checkpoint checkpoint) throws InterruptedException {
        return client.until(line -> line.has("checkpoint_complete")
            && line.get("checkpoint_complete").get("last_op_id").asLong() >= checkpoint.opId(), LINE);
    }

    private static JsonNode lastDiff(List<JsonNode> lines) {
        return lines.stream().filter(l -> l.has("checkpoint_diff")).reduce((a, b) -> b).orElseThrow()
            .get("checkpoint_diff");
    }
}
