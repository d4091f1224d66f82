package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.http.ApiServer;
import io.tributary.api.stream.StreamSettings;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Priorities, keepalives, token expiry and slow clients. */
@RealServices
class StreamLifecycleIT {

    static final String PRIORITY_RULES = """
        bucket_definitions:
          settings:
            priority: 1
            parameters: SELECT request.user_id() AS user_id
            data:
              - SELECT id, theme FROM settings WHERE owner = bucket.user_id
          global:
            data:
              - SELECT id, title FROM lists
        """;

    @Test
    void higherPriorityBucketsArriveFirstWithAPartialCompletion(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, PRIORITY_RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.rows.upsert("settings", "s1", "{\"id\":\"s1\",\"theme\":\"dark\",\"owner\":\"u1\"}");
            long opId = f.checkpoint().opId();
            f.activate();
            f.startApi(StreamSettings.defaults());

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> lines = client.untilComplete();
                assertThat(lines).extracting(StreamLifecycleIT::kind).containsExactly("checkpoint",
                    "data settings[\"u1\"]", "partial_checkpoint_complete", "data global[]", "checkpoint_complete");
                assertThat(lines.get(0).at("/checkpoint/buckets")).anySatisfy(b -> {
                    assertThat(b.get("bucket").asText()).isEqualTo("settings[\"u1\"]");
                    assertThat(b.get("priority").asInt()).isEqualTo(1);
                });
                assertThat(lines.get(2).get("partial_checkpoint_complete").get("priority").asInt()).isEqualTo(1);
                assertThat(lines.get(2).get("partial_checkpoint_complete").get("last_op_id").asLong())
                    .isEqualTo(opId);
            }
        }
    }

    @Test
    void keepalivesCountDownAndTheStreamEndsWhenTheTokenExpires(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults().withKeepaliveInterval(Duration.ofSeconds(1)));

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1",
                Duration.ofSeconds(8)), "{\"raw_data\":true}")) {
                List<JsonNode> first = client.untilComplete();
                List<JsonNode> rest = client.until(line -> line.has("token_expires_in")
                    && line.get("token_expires_in").asLong() == 0, Duration.ofSeconds(30));
                assertThat(rest).allMatch(line -> line.has("token_expires_in"));
                assertThat(rest.size()).as(first + " then " + rest).isGreaterThanOrEqualTo(2);
                await().atMost(Duration.ofSeconds(10)).until(client::ended);
            }
        }
    }

    @Test
    void aClientThatStopsReadingIsCutOff(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            String filler = "x".repeat(4_000);
            for (int i = 0; i < 3_000; i++) {
                f.rows.upsert("lists", "l" + i, "{\"id\":\"l" + i + "\",\"title\":\"" + filler + "\"}");
            }
            f.checkpoint();
            f.activate();
            ApiServer api = f.startApi(StreamSettings.defaults().withWriteTimeout(Duration.ofSeconds(2)));

            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(4096);
                socket.connect(new InetSocketAddress("127.0.0.1", api.port()));
                byte[] body = "{\"raw_data\":true}".getBytes(StandardCharsets.UTF_8);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /sync/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token " + f.token("u1")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                await().atMost(Duration.ofSeconds(5)).until(() -> api.activeStreams() == 1);
                await().atMost(Duration.ofSeconds(60)).until(() -> api.slowClientsCutOff() == 1);
                await().atMost(Duration.ofSeconds(10)).until(() -> api.activeStreams() == 0);
            }

            try (SyncClient reader = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                assertThat(SyncStreamIT.ops(reader.untilComplete(), "global[]")).hasSize(3_000);
            }
        }
    }

    static String kind(JsonNode line) {
        String field = line.fieldNames().next();
        return field.equals("data") ? "data " + line.get("data").get("bucket").asText() : field;
    }
}
