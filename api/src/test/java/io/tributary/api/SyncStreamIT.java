package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /sync/stream} against storage a real storage writer filled. */
@RealServices
class SyncStreamIT {

    static final String RULES = """
        bucket_definitions:
          global:
            data:
              - SELECT id, title FROM lists
          by_user:
            parameters: SELECT request.user_id() AS user_id
            data:
              - SELECT id, title FROM todos WHERE owner = bucket.user_id
        """;

    private static final Duration LINE = Duration.ofSeconds(30);

    @Test
    void firstCheckpointDownloadsEveryBucketWithChecksumsOfStorage(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"milk\",\"owner\":\"u1\"}");
            f.rows.upsert("todos", "t2", "{\"id\":\"t2\",\"title\":\"eggs\",\"owner\":\"u1\"}");
            f.rows.upsert("todos", "t3", "{\"id\":\"t3\",\"title\":\"tea\",\"owner\":\"u2\"}");
            f.checkpoint();
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"oat milk\",\"owner\":\"u1\"}");
            Checkpoint cp = f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"buckets\":[],\"include_checksum\":true,\"raw_data\":true,\"client_id\":\"c1\"}")) {
                assertThat(client.status).isEqualTo(200);
                List<JsonNode> lines = client.untilComplete();
                JsonNode checkpoint = lines.get(0).get("checkpoint");
                assertThat(checkpoint.get("last_op_id").asText()).isEqualTo(Long.toString(cp.opId()));
                Map<String, JsonNode> buckets = new HashMap<>();
                checkpoint.get("buckets").forEach(b -> buckets.put(b.get("bucket").asText(), b));
                assertThat(buckets).containsOnlyKeys("global[]", "by_user[\"u1\"]");
                for (JsonNode bucket : buckets.values()) {
                    long[] stored = f.storedSum(bucket.get("bucket").asText(), cp.opId());
                    assertThat(bucket.get("checksum").asLong()).isEqualTo(stored[0]);
                    assertThat(bucket.get("count").asLong()).isEqualTo(stored[1]);
                    assertThat(bucket.get("priority").asInt()).isEqualTo(3);
                }
                assertThat(buckets.get("by_user[\"u1\"]").get("count").asLong()).isEqualTo(3);

                List<JsonNode> ops = ops(lines, "by_user[\"u1\"]");
                assertThat(ops).extracting(op -> op.get("object_id").asText()).containsExactlyInAnyOrder("t1", "t2",
                    "t1");
                assertThat(ops.get(2).get("object_id").asText()).isEqualTo("t1");
                assertThat(ops.get(2).get("data").asText()).isEqualTo("{\"id\":\"t1\",\"title\":\"oat milk\"}");
                assertThat(ops.stream().filter(op -> op.get("object_id").asText().equals("t1"))
                    .map(op -> op.get("subkey").asText()).distinct()).hasSize(1);
                assertThat(sum(ops)).isEqualTo((int) buckets.get("by_user[\"u1\"]").get("checksum").asLong());
                assertThat(lines.get(lines.size() - 1).get("checkpoint_complete").get("last_op_id").asText())
                    .isEqualTo(Long.toString(cp.opId()));
            }
        }
    }

    @Test
    void aNewCheckpointArrivesAsADiffWithOnlyTheNewOps(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"milk\",\"owner\":\"u1\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Bearer " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> first = client.untilComplete();
                long firstOp = Long.parseLong(first.get(0).get("checkpoint").get("last_op_id").asText());

                f.rows.delete("todos", "t1");
                f.rows.upsert("todos", "t4", "{\"id\":\"t4\",\"title\":\"jam\",\"owner\":\"u1\"}");
                Checkpoint cp = f.checkpoint();

                List<JsonNode> next = client.until(line -> line.has("checkpoint_complete")
                    && line.get("checkpoint_complete").get("last_op_id").asLong() >= cp.opId(), LINE);
                JsonNode diff = next.stream().filter(l -> l.has("checkpoint_diff")).reduce((a, b) -> b).orElseThrow()
                    .get("checkpoint_diff");
                assertThat(diff.get("removed_buckets")).isEmpty();
                assertThat(diff.get("updated_buckets")).extracting(b -> b.get("bucket").asText())
                    .containsExactly("by_user[\"u1\"]");
                JsonNode bucket = diff.get("updated_buckets").get(0);
                long[] stored = f.storedSum("by_user[\"u1\"]", cp.opId());
                assertThat(bucket.get("checksum").asLong()).isEqualTo(stored[0]);
                assertThat(bucket.get("count").asLong()).isEqualTo(3);

                List<JsonNode> ops = ops(next, "by_user[\"u1\"]");
                assertThat(ops).extracting(op -> op.get("op").asText() + " " + op.get("object_id").asText())
                    .containsExactly("REMOVE t1", "PUT t4");
                assertThat(ops).allMatch(op -> Long.parseLong(op.get("op_id").asText()) > firstOp);
                assertThat(ops(next, "global[]")).isEmpty();
            }
        }
    }

    @Test
    void aStreamResumesAfterTheGivenPositions(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, RULES)) {
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"milk\",\"owner\":\"u1\"}");
            Checkpoint before = f.checkpoint();
            f.rows.upsert("todos", "t2", "{\"id\":\"t2\",\"title\":\"eggs\",\"owner\":\"u1\"}");
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            Checkpoint cp = f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            String request = "{\"raw_data\":true,\"buckets\":[{\"name\":\"by_user[\\\"u1\\\"]\",\"after\":\""
                + before.opId() + "\"},{\"name\":\"gone[]\",\"after\":\"1\"}]}";
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"), request)) {
                List<JsonNode> lines = client.untilComplete();
                assertThat(ops(lines, "by_user[\"u1\"]")).extracting(op -> op.get("object_id").asText())
                    .containsExactly("t2");
                JsonNode data = lines.stream().filter(l -> l.has("data")
                    && l.get("data").get("bucket").asText().startsWith("by_user")).findFirst().orElseThrow();
                assertThat(data.get("data").get("after").asText()).isEqualTo(Long.toString(before.opId()));
                assertThat(ops(lines, "global[]")).hasSize(1);
                JsonNode checkpoint = lines.get(0).get("checkpoint");
                assertThat(checkpoint.get("last_op_id").asLong()).isEqualTo(cp.opId());
                long[] stored = f.storedSum("by_user[\"u1\"]", cp.opId());
                assertThat(checkpoint.get("buckets")).anySatisfy(b -> {
                    assertThat(b.get("bucket").asText()).isEqualTo("by_user[\"u1\"]");
                    assertThat(b.get("count").asLong()).isEqualTo(stored[1]);
                    assertThat(b.get("checksum").asLong()).isEqualTo(stored[0]);
                });
            }
        }
    }

    static List<JsonNode> ops(List<JsonNode> lines, String bucket) {
        List<JsonNode> ops = new ArrayList<>();
        for (JsonNode line : lines) {
            if (line.has("data") && line.get("data").get("bucket").asText().equals(bucket)) {
                line.get("data").get("data").forEach(ops::add);
            }
        }
        return ops;
    }

    static int sum(List<JsonNode> ops) {
        long sum = 0;
        for (JsonNode op : ops) {
            sum = (sum + op.get("checksum").asLong()) & 0xFFFF_FFFFL;
        }
        return (int) sum;
    }
}
