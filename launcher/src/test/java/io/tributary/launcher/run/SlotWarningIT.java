package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.Main;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.Secret;
import io.tributary.launcher.metrics.MetricsServer;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A replication slot that keeps more WAL than {@code replication.slot_wal_warning_mb} (1 MiB here, against about
 * 3 MiB the slot keeps because nothing consumes it) is reported everywhere an operator looks: a warning in the log,
 * a {@code warning:} line on {@code /health/ready} (still ready), and {@code tributary status}, as text and JSON.
 */
@RealServices
class SlotWarningIT {

    private static final long MIB = 1024 * 1024;
    private static final String THRESHOLD_KEY = "replication.slot_wal_warning_mb";

    private PostgresDatabase source;
    private PostgresDatabase storage;
    private String slot;

    @BeforeEach
    void createASlotNobodyConsumes(TestServices services) throws Exception {
        source = services.newDatabase();
        storage = services.newDatabase();
        slot = services.uniqueName("slot");
        source.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')",
            "CREATE TABLE filler (id bigint PRIMARY KEY, payload text)",
            "INSERT INTO filler SELECT g, repeat('x', 200) FROM generate_series(1, 12000) g");
    }

    @AfterEach
    void dropTheSlot() throws Exception {
        source.execute("SELECT pg_drop_replication_slot('" + slot + "')");
    }

    @Test
    void theRunLogsAWarningAboveTheThreshold() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(SlotMonitor.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try (SlotMonitor monitor = new SlotMonitor(endpoint(), slot, MIB, new SimpleMeterRegistry())) {
            monitor.poll();
        } finally {
            logger.detachAppender(events);
        }

        assertThat(events.list).filteredOn(event -> event.getLevel() == Level.WARN)
            .extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
            .contains("slot " + slot + " inactive", THRESHOLD_KEY);
    }

    @Test
    void healthReadyStaysReadyAndShowsTheWarning() throws Exception {
        try (SlotMonitor monitor = new SlotMonitor(endpoint(), slot, MIB, new SimpleMeterRegistry());
             MetricsServer server = MetricsServer.start(0, MetricsServer.newRegistry(), () -> true,
                 Replication.healthWarnings(monitor))) {
            monitor.poll();
            HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + server.port() + "/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());

            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).startsWith("ready\nwarning: Replication slot " + slot + " inactive")
                .contains(THRESHOLD_KEY);
        }
    }

    @Test
    void statusShowsTheSlotAboveTheThreshold(@TempDir Path dir) throws Exception {
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
        }
        Path config = Files.writeString(dir.resolve("tributary.yaml"), String.join("\n",
            "source:", "  url: " + source.jdbcUrl(), "  user: " + source.user(),
            "  password: '" + source.password() + "'",
            "storage:", "  url: " + storage.jdbcUrl(), "  user: " + storage.user(),
            "  password: '" + storage.password() + "'",
            "replication:", "  slot_name: " + slot, "  slot_wal_warning_mb: 1", ""));

        String text = status(config.toString());
        JsonNode json = new ObjectMapper().readTree(status(config.toString(), "--json")).get("replication_slot");

        assertThat(text).contains("Replication slot:", "slot " + slot + " inactive",
            "WARNING: above " + THRESHOLD_KEY);
        assertThat(json.get("name").asText()).isEqualTo(slot);
        assertThat(json.get("above_warning").asBoolean()).isTrue();
        assertThat(json.get("retained_wal_bytes").asLong()).isGreaterThan(MIB);
    }

    private static String status(String config, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("status", "--config", config));
        args.addAll(List.of(more));
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        assertThat(code).as("%s%s", out, err).isZero();
        return out.toString();
    }

    private JdbcEndpoint endpoint() {
        return new JdbcEndpoint(source.jdbcUrl(), source.user(), new Secret(source.password()));
    }
}
