package io.tributary.api;

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
 * {@code POST /sync/stream} with the PowerSync clients' {@code Accept} header: a BSON stream whose documents are the
 * NDJSON stream's lines, field for field, rows always as their JSON text.
 */
@RealServices
class BsonStreamIT {

    /** What the PowerSync client SDKs send. */
    private static final String CLIENT_ACCEPT =
        "application/vnd.powersync.bson-stream;q=0.9,application/x-ndjson;q=0.8";
    private static final Duration LINE = Duration.ofSeconds(30);

    @Test
    void aBsonStreamCarriesTheNdjsonStreamsLinesAsDocuments(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            for (int i = 0; i < 300; i++) {
                f.rows.upsert("todos", "t" + i, "{\"id\":\"t" + i + "\",\"title\":\"todo " + i + " é \\\"q\\\"\","
                    + "\"owner\":\"u1\"}");
            }
            f.checkpoint();
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"oat milk\",\"owner\":\"u1\"}");
            f.rows.delete("todos", "t2");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            List<JsonNode> ndjson;
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"buckets\":[],\"raw_data\":true,\"client_id\":\"c1\"}")) {
                assertThat(client.contentType).isEqualTo("application/x-ndjson");
                ndjson = withoutKeepalives(client.untilComplete());
            }
            // Without raw_data: a BSON stream still sends each row as its JSON text, the only form BSON clients read.
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"buckets\":[],\"client_id\":\"c1\"}", CLIENT_ACCEPT)) {
                assertThat(client.status).isEqualTo(200);
                assertThat(client.contentType).isEqualTo(BsonDocuments.CONTENT_TYPE);
                List<JsonNode> bson = withoutKeepalives(client.untilComplete());

                assertThat(bson).hasSize(ndjson.size()).isEqualTo(ndjson);
                assertThat(SyncStreamIT.ops(bson, "by_user[\"u1\"]")).hasSize(302)
                    .allSatisfy(op -> assertThat(op.get("data").isTextual() || op.get("data").isNull()).isTrue());

                f.rows.upsert("todos", "t3", "{\"id\":\"t3\",\"title\":\"tea\",\"owner\":\"u1\"}");
                Checkpoint next = f.checkpoint();
                List<JsonNode> live = client.until(line -> line.has("checkpoint_complete")
                    && line.get("checkpoint_complete").get("last_op_id").asLong() >= next.opId(), LINE);
                JsonNode diff = live.stream().filter(l -> l.has("checkpoint_diff")).reduce((a, b) -> b)
                    .orElseThrow().get("checkpoint_diff");
                long[] stored = f.storedSum("by_user[\"u1\"]", next.opId());
                assertThat(diff.get("updated_buckets").get(0).get("checksum").asLong()).isEqualTo(stored[0]);
                assertThat(SyncStreamIT.ops(live, "by_user[\"u1\"]")).extracting(op -> op.get("data").textValue())
                    .containsExactly("{\"id\":\"t3\",\"title\":\"tea\"}");
            }
        }
    }

    @Test
    void aClientThatPrefersNdjsonGetsNdjson(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}", "application/x-ndjson, application/vnd.powersync.bson-stream;q=0.5")) {
                assertThat(client.contentType).isEqualTo("application/x-ndjson");
                assertThat(client.untilComplete().get(0).has("checkpoint")).isTrue();
            }
        }
    }

    private static List<JsonNode> withoutKeepalives(List<JsonNode> lines) {
        return lines.stream().filter(line -> !line.has("token_expires_in")).toList();
    }
}
