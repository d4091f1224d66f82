package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TopicMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@RealServices
class PlannerScaleIT {

    private static final Logger LOG = LoggerFactory.getLogger(PlannerScaleIT.class);
    private static final int MILLION = 1_000_000;

    /** Rows of {@code table} read by scans (sequential, sample or index) since the statistics were reset. */
    private static long rowsRead(PlannerFixture f, TableId table) throws Exception {
        try (Connection c = f.source.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = s.executeQuery("SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
                + " FROM pg_stat_user_tables WHERE schemaname = '" + table.schema() + "' AND relname = '"
                + table.name() + "'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void aMillionRowTableIsCutWithoutReadingIt(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        TableId devices = TableId.of("big", "devices");
        TableId events = TableId.of("big", "events");
        f.source.execute("CREATE SCHEMA big",
            "CREATE TABLE big.devices (id uuid PRIMARY KEY, n integer)",
            "INSERT INTO big.devices SELECT gen_random_uuid(), g FROM generate_series(1, " + MILLION + ") g",
            "CREATE TABLE big.events (id bigint PRIMARY KEY, n integer)",
            "INSERT INTO big.events SELECT g, g FROM generate_series(1, " + MILLION + ") g",
            "ANALYZE big.devices", "ANALYZE big.events", "SELECT pg_stat_reset()");
        await().atMost(Duration.ofSeconds(10)).until(() -> rowsRead(f, devices) == 0 && rowsRead(f, events) == 0);
        f.group(GroupState.ACTIVE, "big.%");

        PlanReport report;
        try (SnapshotPlanner planner = f.planner(20_000)) {
            report = planner.planOnce();
        }

        LOG.info("Planned two 1M-row tables in {} ms", report.took().toMillis());
        assertThat(report.opened()).isEqualTo(2);
        assertThat(f.window(devices).chunksPlanned()).isBetween(40, 60);
        assertThat(f.window(events).chunksPlanned()).isBetween(40, 60);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(rowsRead(f, devices)).isPositive());
        assertThat(rowsRead(f, devices)).as("rows of big.devices read to plan it").isLessThan(MILLION / 10);
        assertThat(rowsRead(f, events)).as("rows of big.events read to plan it").isLessThan(10);
        List<ChunkRange> ranges = new ArrayList<>();
        for (PlannerFixture.Read<TopicMessage> r : f.tasks()) {
            if (r.message() instanceof ChunkTask task && task.table().equals(devices)) {
                ranges.add(task.range());
            }
        }
        ChunkRange first = ranges.stream().filter(r -> r.lo().isEmpty()).findFirst().orElseThrow();
        assertThat(f.count(devices, first)).isBetween(5_000L, 40_000L);
    }

    @Test
    void twoHundredTablesPlanInSeconds(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        List<String> ddl = new ArrayList<>();
        for (int t = 0; t < 40; t++) {
            ddl.add("CREATE SCHEMA tenant_" + t);
            for (String table : List.of("orders", "items", "users", "notes", "tags")) {
                ddl.add("CREATE TABLE tenant_" + t + "." + table + " (id integer PRIMARY KEY, v text)");
                ddl.add("INSERT INTO tenant_" + t + "." + table + " SELECT g, 'v' || g FROM generate_series(1, 20) g");
            }
        }
        f.source.execute(ddl.toArray(String[]::new));
        f.group(GroupState.ACTIVE, "tenant_%.%");

        PlanReport report;
        try (SnapshotPlanner planner = f.planner(20_000)) {
            report = planner.planOnce();
        }

        LOG.info("Planned 200 tables in {} ms", report.took().toMillis());
        assertThat(report.opened()).isEqualTo(200);
        assertThat(report.took()).isLessThan(Duration.ofSeconds(20));
        assertThat(f.windows()).hasSize(200).allSatisfy(w -> assertThat(w.state()).isEqualTo(WindowStatus.SNAPSHOTTING))
            .extracting(WindowProgress::chunksPlanned).containsOnly(1);
    }
}
