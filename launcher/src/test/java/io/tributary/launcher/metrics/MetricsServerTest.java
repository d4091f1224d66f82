package io.tributary.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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

    @Test
    void readinessNamesEveryWarningThatHoldsAndStaysReady() throws Exception {
        AtomicReference<List<String>> warnings = new AtomicReference<>(List.of());
        try (MetricsServer server = MetricsServer.start(0, MetricsServer.newRegistry(), () -> true, warnings::get)) {
            assertThat(get(server, "/health/ready").body()).isEqualTo("ready\n");
            warnings.set(List.of("Replication slot tributary active, retains 2.0 GiB of WAL"));
            HttpResponse<String> response = get(server, "/health/ready");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body())
                .isEqualTo("ready\nwarning: Replication slot tributary active, retains 2.0 GiB of WAL\n");
        }
    }

    @Test
    void bindsTheKafkaClientsThatNameItsReporter() throws Exception {
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        Properties properties = new Properties();
        // Nothing listens there: the client's own metrics exist as soon as it is created.
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        properties.put(AdminClientConfig.METRIC_REPORTER_CLASSES_CONFIG, KafkaMetricsReporter.CLIENT_PROPERTY);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "reporter-test");
        try (Admin admin = Admin.create(properties)) {
            assertThat(registry.scrape()).contains("kafka_admin_client_connection_count{")
                .contains("client_id=\"reporter-test\"").contains("kafka_version=\"");
        }
        assertThat(registry.scrape()).doesNotContain("client_id=\"reporter-test\"");
    }

    @Test
    void aSeriesAnotherClientBoundStaysWhenTheSecondClientCloses() throws Exception {
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        properties.put(AdminClientConfig.METRIC_REPORTER_CLASSES_CONFIG, KafkaMetricsReporter.CLIENT_PROPERTY);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "twice");
        try (Admin first = Admin.create(properties)) {
            try (Admin second = Admin.create(properties)) {
                assertThat(registry.scrape()).contains("kafka_admin_client_connection_count{");
            }
            assertThat(registry.scrape()).contains("kafka_admin_client_connection_count{")
                .contains("client_id=\"twice\"");
        }
        assertThat(registry.scrape()).doesNotContain("client_id=\"twice\"");
    }

    private HttpResponse<String> get(MetricsServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
