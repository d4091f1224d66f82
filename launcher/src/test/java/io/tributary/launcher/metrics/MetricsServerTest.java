package io.tributary.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MetricsServerTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesPrometheusMetricsAndHealth() throws Exception {
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        registry.counter("rows_replicated").increment(42);
        AtomicBoolean ready = new AtomicBoolean(false);
        try (MetricsServer server = MetricsServer.start(0, registry, ready::get)) {
            assertThat(get(server, "/metrics").body()).contains("rows_replicated_total 42.0")
                .contains("jvm_memory_used_bytes").contains("process_uptime_seconds");
            assertThat(get(server, "/health/live").statusCode()).isEqualTo(200);
            assertThat(get(server, "/health/ready").statusCode()).isEqualTo(503);
            ready.set(true);
            assertThat(get(server, "/health/ready").statusCode()).isEqualTo(200);
        }
    }

    private HttpResponse<String> get(MetricsServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
