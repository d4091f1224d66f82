package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.Main;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.Secret;
import io.tributary.launcher.inspect.ReplicationSlot;
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
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The slot watch against a real logical replication slot whose consumer falls behind: gauges, and above
 * {@code replication.slot_wal_warning_mb} (1 MiB in the warning cases, against about 3 MiB the slot keeps) a
 * warning everywhere an operator looks: the log, a {@code warning:} line on {@code /health/ready} (still ready),
 * and {@code tributary status}, as text and JSON.
 */
@RealServices
class SlotMonitorIT {

    private static final long MIB = 1024 * 1024;
    private static final String THRESHOLD_KEY = "replication.slot_wal_warning_mb";

    private PostgresDatabase source;
    private String slot;

    @BeforeEach
    void createASlotNobodyConsumes(TestServices services) throws Exception {
        source = services.newDatabase();
        slot = services.uniqueName("slot");
        source.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')",
            "CREATE TABLE filler (id bigint PRIMARY KEY, payload text)",
            // About 3 MiB of WAL the slot must keep: nothing confirms it.
            "INSERT INTO filler SELECT g, repeat('x', 200) FROM generate_series(1, 12000) g");
    }

    @AfterEach
    void dropTheSlot() throws Exception {
        // A slot left behind would keep the shared server's WAL for the rest of the run.
        source.execute("SELECT pg_drop_replication_slot('" + slot + "')");
    }

    @Test
    void gaugesTheWalTheSlotRetainsAndHowFarItsConfirmedFlushLags() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (SlotMonitor monitor = new SlotMonitor(endpoint(), slot, 1024 * MIB, registry)) {
            ReplicationSlot reading = monitor.poll().orElseThrow();

            assertThat(reading.active()).isFalse();
            assertThat(reading.retainedWalBytes()).isGreaterThan(MIB);
            assertThat(reading.confirmedFlushLagBytes()).isGreaterThan(MIB)
                .isLessThanOrEqualTo(reading.retainedWalBytes());
            assertThat(gauge(registry, "tributary_replication_slot_retained_wal_bytes"))
                .isEqualTo(reading.retainedWalBytes());
            assertThat(gauge(registry, "tributary_replication_slot_confirmed_flush_lag_bytes"))
                .isEqualTo(reading.confirmedFlushLagBytes());
            assertThat(gauge(registry, "tributary_replication_slot_active")).isZero();
            assertThat(monitor.warning()).as("1 GiB threshold not reached").isEmpty();
        }
    }

    @Test
    void warnsOnceTheRetainedWalIsAboveTheThreshold() throws Exception {
        try (SlotMonitor monitor = new SlotMonitor(endpoint(), slot, MIB, new SimpleMeterRegistry())) {
            monitor.poll();

            assertThat(monitor.warning()).hasValueSatisfying(warning -> assertThat(warning)
                .contains("slot " + slot + " inactive").contains("replication.slot_wal_warning_mb"));
        }
    }

    @Test
    void readsNothingForASlotThatDoesNotExist() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (SlotMonitor monitor = new SlotMonitor(endpoint(), slot + "_missing", MIB, registry)) {
            assertThat(monitor.poll()).isEqualTo(Optional.empty());
            assertThat(monitor.warning()).isEmpty();
            assertThat(gauge(registry, "tributary_replication_slot_retained_wal_bytes")).isNaN();
        }
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
    void statusShowsTheSlotAboveTheThreshold(TestServices services, @TempDir Path dir) throws Exception {
        PostgresDatabase storage = services.newDatabase();
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

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }
}
