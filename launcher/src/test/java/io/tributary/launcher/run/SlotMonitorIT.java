package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.Secret;
import io.tributary.launcher.inspect.ReplicationSlot;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The slot watch against a real logical replication slot whose consumer falls behind. */
@RealServices
class SlotMonitorIT {

    private static final long MIB = 1024 * 1024;

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

    private JdbcEndpoint endpoint() {
        return new JdbcEndpoint(source.jdbcUrl(), source.user(), new Secret(source.password()));
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }
}
