package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The planning state that gates a group's checkpoints: a group is marked planned only by a round that saw it and
 * stored a window for every table it reads.
 */
@RealServices
class GroupPlanningIT {

    private static final TableId ITEMS = TableId.of("tenant_a", "items");
    private static final TableId LOGBOOK = TableId.of("tenant_a", "logbook");
    private static final TableId MEMBERS = TableId.of("tenant_b", "memberships");

    private static PlannerFixture fixture(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA tenant_b",
            "CREATE TABLE tenant_a.items (id bigint PRIMARY KEY, name text)",
            "INSERT INTO tenant_a.items SELECT g, 'item ' || g FROM generate_series(1, 2000) g",
            "CREATE TABLE tenant_a.logbook (line text)",
            "CREATE TABLE tenant_b.memberships (tenant text, member_id integer, PRIMARY KEY (tenant, member_id))",
            "INSERT INTO tenant_b.memberships SELECT 't' || (g % 13), g FROM generate_series(1, 2000) g",
            "ANALYZE");
        return f;
    }


    @Test
    void aGroupIsPlannedOnlyByARoundThatStoredAWindowForEveryTableItReads(TestServices services)
        throws Exception {
        PlannerFixture f = fixture(services);
        SyncRulesGroup group = f.group(GroupState.PROCESSING, "tenant_a.%");
        f.storage.execute("CREATE FUNCTION tributary.refuse_chunks() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN RAISE EXCEPTION 'storage refuses chunks' USING ERRCODE = '08006'; END $$",
            "CREATE TRIGGER refuse_chunks BEFORE INSERT ON tributary.snapshot_chunks"
                + " FOR EACH ROW EXECUTE FUNCTION tributary.refuse_chunks()");

        String interrupted;
        try (SnapshotPlanner planner = f.planner(500)) {
            assertThatThrownBy(planner::planOnce).isInstanceOf(SQLException.class);
            assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.PLANNING);
            interrupted = f.window(ITEMS).window().windowId();
            assertThat(f.isPlanned(group)).isFalse();

            f.storage.execute("DROP TRIGGER refuse_chunks ON tributary.snapshot_chunks");
            planner.planOnce();
        }

        assertThat(f.isPlanned(group)).isTrue();
        assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
        assertThat(f.window(ITEMS).window().windowId()).isNotEqualTo(interrupted);
        assertThat(f.window(LOGBOOK).state()).isEqualTo(WindowStatus.FAILED);
    }

    @Test
    void aGroupDeployedAfterARoundIsPlannedByTheNextOne(TestServices services) throws Exception {
        PlannerFixture f = fixture(services);
        SyncRulesGroup first = f.group(GroupState.ACTIVE, "tenant_a.items");
        try (SnapshotPlanner planner = f.planner(500)) {
            planner.planOnce();
            SyncRulesGroup later = f.group(GroupState.PROCESSING, "tenant_a.items", "tenant_b.memberships");
            assertThat(f.isPlanned(first)).isTrue();
            assertThat(f.isPlanned(later)).isFalse();
            assertThat(f.windows()).extracting(WindowProgress::window)
                .noneMatch(w -> w.table().equals(MEMBERS.name()));

            planner.planOnce();

            assertThat(f.isPlanned(later)).isTrue();
            assertThat(f.window(MEMBERS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
        }
    }
}
