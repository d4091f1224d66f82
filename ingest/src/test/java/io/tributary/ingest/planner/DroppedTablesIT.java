package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A table created after its group was planned, whose streamed rows the writers applied ({@code table_rows}), and
 * dropped before a planning round opened its window: it must not hold the group's checkpoints for ever.
 */
@RealServices
class DroppedTablesIT {

    private static final TableId ITEMS = TableId.of("tenant_a", "items");
    private static final TableId GONE = TableId.of("tenant_a", "gone");

    @Test
    void aTableDroppedBeforeItsWindowOpenedGetsAFailedWindowNamingTheDrop(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE TABLE tenant_a.items (id bigint PRIMARY KEY)",
            "INSERT INTO tenant_a.items SELECT g FROM generate_series(1, 100) g");
        SyncRulesGroup group = f.group(GroupState.ACTIVE, "tenant_a.%");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
            // tenant_a.gone: created, its inserts streamed and applied, then dropped before the next round
            f.storage.execute("INSERT INTO tributary.table_rows (group_id, partition, table_schema, table_name,"
                + " seen_after_epoch) VALUES (" + group.id() + ", 1, 'tenant_a', 'gone', 4)");

            planner.planOnce();
        }

        Optional<WindowProgress> window = f.windows().stream().filter(w -> w.window().table().equals(GONE.name()))
            .findFirst();
        assertThat(window).as("a window of the dropped table %s", GONE).hasValueSatisfying(w -> {
            assertThat(w.state()).isEqualTo(WindowStatus.FAILED);
            assertThat(w.error().orElseThrow()).contains(GONE.quoted(), "dropped");
        });
        assertThat(f.window(ITEMS).state()).isNotEqualTo(WindowStatus.FAILED);
    }

    @Test
    void aTableWithRowsThatStillExistsIsLeftToThePlanner(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE TABLE tenant_a.items (id bigint PRIMARY KEY)");
        SyncRulesGroup group = f.group(GroupState.ACTIVE, "tenant_a.%");
        f.storage.execute("INSERT INTO tributary.table_rows (group_id, partition, table_schema, table_name,"
            + " seen_after_epoch) VALUES (" + group.id() + ", 0, 'tenant_a', 'items', 2)");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
        }

        assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
    }
}
