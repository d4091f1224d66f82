package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.api.stream.StreamSettings;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Requests without an acceptable token get 401 with a JSON error, on both endpoints. */
@RealServices
class AuthIT {

    @Test
    void badTokensGet401WithAJsonError(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            f.startApi(StreamSettings.defaults());
            String foreign = DevelopmentTokens.mint(DevelopmentTokens.newKey("dev"), ApiFixture.AUDIENCE, "u1",
                Duration.ofMinutes(5), Instant.now());
            String wrongAudience = DevelopmentTokens.mint(f.key, "other", "u1", Duration.ofMinutes(5),
                Instant.now());
            String expired = DevelopmentTokens.mint(f.key, ApiFixture.AUDIENCE, "u1", Duration.ofMinutes(1),
                Instant.now().minus(Duration.ofMinutes(10)));
            for (String authorization : new String[] {null, "Token garbage", "Token " + foreign,
                "Token " + wrongAudience, "Token " + expired}) {
                try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), authorization, "{}")) {
                    assertThat(client.status).as(String.valueOf(authorization)).isEqualTo(401);
                    JsonNode error = client.next(Duration.ofSeconds(10)).get("error");
                    assertThat(error.get("status").asInt()).isEqualTo(401);
                    assertThat(error.get("description").asText()).isNotBlank();
                }
                HttpResponse<String> response = get(f.uri("/write-checkpoint2.json?client_id=c1"), authorization);
                assertThat(response.statusCode()).isEqualTo(401);
                assertThat(SyncClient.JSON.readTree(response.body()).at("/error/status").asInt()).isEqualTo(401);
            }
        }
    }

    static HttpResponse<String> get(URI uri, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
