package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The request's {@code streams}: without {@code include_defaults} a client gets the bucket definitions it subscribes
 * to by name and nothing else; a subscription to a stream the rules do not define is refused with the reason.
 */
@RealServices
class StreamSubscriptionsIT {

    @Test
    void withoutDefaultsAClientGetsOnlyTheDefinitionsItSubscribesTo(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.rows.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"milk\",\"owner\":\"u1\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());

            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true,\"streams\":{\"include_defaults\":false,\"subscriptions\":[{\"stream\":"
                    + "\"by_user\",\"parameters\":null,\"override_priority\":null}]}}")) {
                List<JsonNode> lines = client.untilComplete();
                JsonNode checkpoint = lines.get(0).get("checkpoint");
                List<String> buckets = new ArrayList<>();
                checkpoint.get("buckets").forEach(b -> buckets.add(b.get("bucket").asText()));
                assertThat(buckets).containsExactly("by_user[\"u1\"]");
                assertThat(checkpoint.get("buckets").get(0).get("subscriptions").toString())
                    .isEqualTo("[{\"default\":0}]");
                assertThat(checkpoint.get("streams").toString())
                    .isEqualTo("[{\"name\":\"by_user\",\"is_default\":true,\"errors\":[]}]");
                assertThat(lines).filteredOn(line -> line.has("data"))
                    .allSatisfy(line -> assertThat(line.get("data").get("bucket").asText())
                        .isEqualTo("by_user[\"u1\"]"));
            }
        }
    }

    @Test
    void aSubscriptionToAStreamTheRulesDoNotDefineIsRefused(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.rows.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"groceries\"}");
            f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults());
            awaitServed(f);

            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    f.uri("/sync/stream")).header("Authorization", "Token " + f.token("u1"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"streams\":{\"subscriptions\":[{\"stream\":"
                    + "\"shared_lists\"}]}}")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("shared_lists").contains("do not define").contains("by_user");
        }
    }

    /** Waits until the API serves a checkpoint: a stream's first line arrives. */
    private static void awaitServed(ApiFixture f) throws Exception {
        try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"), "{}")) {
            client.untilComplete();
        }
    }
}
