package io.tributary.launcher.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The process's HTTP endpoint: {@code /metrics} (Prometheus text format), {@code /health/live} (the process
 * runs) and {@code /health/ready} (its parts started and are healthy: 200, else 503; the body names the
 * warnings that hold, one {@code warning: } line each, which do not make the process unready). Closing stops it.
 */
public final class MetricsServer implements AutoCloseable {

    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving on {@code port} (0 picks a free port).
     *
     * @param ready whether the process is ready to do its work
     */
    public static MetricsServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        return start(port, registry, ready, List::of);
    }

    /**
     * Starts serving on {@code port} (0 picks a free port).
     *
     * @param ready    whether the process is ready to do its work
     * @param warnings what an operator should look at now (each one line), shown by {@code /health/ready}
     */
    public static MetricsServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready,
                                      Supplier<List<String>> warnings) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
            server.createContext("/metrics", exchange -> respond(exchange, 200,
                "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
            server.createContext("/health/live", exchange -> respond(exchange, 200, "text/plain", "live\n"));
            server.createContext("/health/ready", exchange -> {
                boolean isReady = ready.getAsBoolean();
                StringBuilder body = new StringBuilder(isReady ? "ready\n" : "not ready\n");
                warnings.get().forEach(warning -> body.append("warning: ").append(warning).append('\n'));
                respond(exchange, isReady ? 200 : 503, "text/plain", body.toString());
            });
            server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "metrics-http");
                thread.setDaemon(true);
                return thread;
            }));
            server.start();
            return new MetricsServer(server);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serve metrics on port " + port + " (set metrics.port to a free "
                + "port, or 0 to turn the endpoint off): " + e.getMessage(), e);
        }
    }

    /**
     * A registry in Prometheus format, with the JVM's and the process's own meters bound, and the Kafka clients the
     * process creates from now on (those whose {@code metric.reporters} name {@link KafkaMetricsReporter}).
     */
    public static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        KafkaMetricsReporter.bindTo(registry);
        return registry;
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body)
        throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
