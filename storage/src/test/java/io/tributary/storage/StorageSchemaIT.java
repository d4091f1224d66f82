package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.storage.schema.SchemaVersionException;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

@RealServices
class StorageSchemaIT {

    @Test
    void concurrentStartsMigrateOnce(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> starts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                starts.add(pool.submit(() -> {
                    try (Connection c = db.connect()) {
                        return Migrations.migrate(c);
                    }
                }));
            }
            for (Future<Integer> start : starts) {
                assertThat(start.get()).isEqualTo(Migrations.ALL.get(Migrations.ALL.size() - 1).version());
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM tributary.schema_version")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(Migrations.ALL.size());
        }
    }

    @Test
    void aNewerSchemaRefusesToStart(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            c.createStatement().execute("INSERT INTO tributary.schema_version (version, name) VALUES (999, 'x')");
            assertThatThrownBy(() -> Migrations.migrate(c))
                .isInstanceOf(SchemaVersionException.class)
                .hasMessageContaining("version 999");
        }
    }

    @Test
    void aGroupIsUnplannedUntilAPlanningRoundMarksItAndStaysPlanned(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            SyncRulesGroup first = SyncRulesGroups.create(c, "bucket_definitions: {}");
            SyncRulesGroup second = SyncRulesGroups.create(c, "bucket_definitions: {}");
            assertThat(SyncRulesGroups.isPlanned(c, first.id())).isFalse();

            assertThat(SyncRulesGroups.markPlanned(c, List.of(first.id()))).containsExactly(first.id());
            assertThat(SyncRulesGroups.markPlanned(c, List.of(first.id(), second.id())))
                .containsExactly(second.id());

            assertThat(SyncRulesGroups.isPlanned(c, first.id())).isTrue();
            assertThat(SyncRulesGroups.isPlanned(c, second.id())).isTrue();
        }
    }

    @Test
    void clearingATerminatedGroupDropsItsPartitions(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            SyncRulesGroup group = SyncRulesGroups.create(c, "bucket_definitions: {}");
            c.createStatement().execute("INSERT INTO tributary.bucket_data VALUES (" + group.id()
                + ", 'global[]', 1, 1, 'items', '1', 42, '{\"id\":\"1\"}')");
            c.createStatement().execute("INSERT INTO tributary.partition_offsets (group_id, partition) VALUES ("
                + group.id() + ", 0)");
            c.createStatement().execute("INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn, "
                + "max_op_id) VALUES (" + group.id() + ", 0, 1, '0/1', 1)");
            assertThat(partitions(c, group.id())).isEqualTo(3);

            assertThatThrownBy(() -> SyncRulesGroups.clear(c, group.id()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("PROCESSING");
            assertThat(SyncRulesGroups.transition(c, group.id(), GroupState.PROCESSING, GroupState.STOP)).isTrue();
            assertThat(SyncRulesGroups.transition(c, group.id(), GroupState.PROCESSING, GroupState.ACTIVE)).isFalse();
            assertThat(SyncRulesGroups.transition(c, group.id(), GroupState.STOP, GroupState.TERMINATED)).isTrue();
            SyncRulesGroups.clear(c, group.id());

            assertThat(partitions(c, group.id())).isZero();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT (SELECT count(*) FROM "
                + "tributary.partition_offsets) + (SELECT count(*) FROM tributary.sealed_epochs)")) {
                rs.next();
                assertThat(rs.getLong(1)).as("writer bookkeeping of the cleared group").isZero();
            }
            assertThat(SyncRulesGroups.find(c, group.id()).orElseThrow().state()).isEqualTo(GroupState.TERMINATED);
        }
    }

    private static int partitions(Connection c, long groupId) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'tributary' AND tablename IN ('bucket_data_g"
                + groupId + "', 'current_data_g" + groupId + "', 'bucket_parameters_g" + groupId
                + "')")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
