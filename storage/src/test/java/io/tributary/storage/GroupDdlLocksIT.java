package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Deploying (creating a group's partitions) and clearing (dropping them) while a storage writer's transaction is
 * between its {@code current_data} statements and its op copy: the DDL waits for the writer, and neither fails
 * (it deadlocked when the DDL locked {@code bucket_data} first).
 */
@RealServices
class GroupDdlLocksIT {

    @Test
    void aDeployWaitsForAWriterMidTransactionInsteadOfDeadlocking(TestServices services) throws Exception {
        PostgresDatabase db = migrated(services);
        SyncRulesGroup writing = create(db);
        awaitBothSucceed(db, writing, () -> create(db));
    }

    @Test
    void aClearWaitsForAWriterMidTransactionInsteadOfDeadlocking(TestServices services) throws Exception {
        PostgresDatabase db = migrated(services);
        SyncRulesGroup writing = create(db);
        SyncRulesGroup terminated = create(db);
        try (Connection c = db.connect()) {
            SyncRulesGroups.transition(c, terminated.id(), GroupState.PROCESSING, GroupState.STOP);
            SyncRulesGroups.transition(c, terminated.id(), GroupState.STOP, GroupState.TERMINATED);
        }
        awaitBothSucceed(db, writing, () -> {
            try (Connection c = db.connect()) {
                SyncRulesGroups.clear(c, terminated.id());
            }
            return terminated;
        });
    }

    /** A writer-shaped transaction of {@code group} with {@code ddl} started between its two statements. */
    private static void awaitBothSucceed(PostgresDatabase db, SyncRulesGroup group, Ddl ddl) throws Exception {
        try (Connection writer = db.connect(); Statement w = writer.createStatement()) {
            writer.setAutoCommit(false);
            w.execute("INSERT INTO tributary.current_data (group_id, source_key, buckets, source_partition,"
                + " source_offset) VALUES (" + group.id() + ", '\\x01', '[]', 0, 0)");
            CompletableFuture<SyncRulesGroup> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return ddl.run();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> waitsForALock(db) || running.isDone());
            w.execute("INSERT INTO tributary.bucket_data VALUES (" + group.id()
                + ", 'global[]', 1, 1, 'items', '1', 42, '{\"id\":\"1\"}')");
            writer.commit();
            assertThat(running.get(30, TimeUnit.SECONDS)).isNotNull();
        }
    }

    private static boolean waitsForALock(PostgresDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    private static PostgresDatabase migrated(TestServices services) throws SQLException {
        PostgresDatabase db = services.newDatabase();
        try (Connection setup = db.connect()) {
            Migrations.migrate(setup);
        }
        return db;
    }

    private static SyncRulesGroup create(PostgresDatabase db) throws SQLException {
        try (Connection c = db.connect()) {
            return SyncRulesGroups.create(c, "bucket_definitions: {}");
        }
    }

    @FunctionalInterface
    private interface Ddl {
        SyncRulesGroup run() throws SQLException;
    }
}
