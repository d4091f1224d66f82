package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /write-checkpoint2.json} records the source's WAL position; the first checkpoint at or after it carries
 * the write checkpoint, on a stream that is open and on one that connects later.
 */
@RealServices
class WriteCheckpointIT {

    @Test
    void theFirstCheckpointPastTheWritePositionCarriesTheWriteCheckpoint(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"milk\",\"owner\":\"u1\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());
            String token = "Token " + f.token("u1");

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), token,
                "{\"raw_data\":true,\"client_id\":\"c1\"}")) {
                assertThat(client.untilComplete().get(0).get("checkpoint").has("write_checkpoint")).isFalse();

                HttpResponse<String> response = AuthIT.get(f.uri("/write-checkpoint2.json?client_id=c1"), token);
                assertThat(response.statusCode()).isEqualTo(200);
                String id = SyncClient.JSON.readTree(response.body()).at("/data/write_checkpoint").asText();
                assertThat(Long.parseLong(id)).isPositive();

                f.rows.upsert("todos", "t2", "{\"id\":\"t2\",\"title\":\"eggs\",\"owner\":\"u1\"}");
                Checkpoint before = f.checkpoint();
                List<JsonNode> early = client.until(line -> completes(line, before), Duration.ofSeconds(30));
                assertThat(early).filteredOn(line -> line.has("checkpoint_diff"))
                    .allMatch(line -> !line.get("checkpoint_diff").has("write_checkpoint"));

                Checkpoint covering = f.checkpoint(f.rows.barrier(f.walPosition()));
                List<JsonNode> late = client.until(line -> completes(line, covering), Duration.ofSeconds(30));
                JsonNode diff = late.stream().filter(line -> line.has("checkpoint_diff")).findFirst().orElseThrow()
                    .get("checkpoint_diff");
                assertThat(diff.get("write_checkpoint").asText()).isEqualTo(id);
                assertThat(diff.get("updated_buckets")).isEmpty();
            }

            try (SyncClient later = SyncClient.open(f.uri("/sync/stream"), token,
                "{\"raw_data\":true,\"client_id\":\"c1\"}")) {
                JsonNode checkpoint = later.untilComplete().get(0).get("checkpoint");
                assertThat(checkpoint.get("write_checkpoint").asLong()).isPositive();
            }
            try (SyncClient otherClient = SyncClient.open(f.uri("/sync/stream"), token,
                "{\"raw_data\":true,\"client_id\":\"c2\"}")) {
                assertThat(otherClient.untilComplete().get(0).get("checkpoint").has("write_checkpoint")).isFalse();
            }
        }
    }

    private static boolean completes(JsonNode line, Checkpoint checkpoint) {
        return line.has("checkpoint_complete")
            && line.get("checkpoint_complete").get("last_op_id").asLong() >= checkpoint.opId();
    }
}
