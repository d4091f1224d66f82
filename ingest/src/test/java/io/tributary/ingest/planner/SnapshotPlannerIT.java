package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.PlannedChunk;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.SnapshotPriority;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowPlan;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.messages.TopicMessage;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

@RealServices
class SnapshotPlannerIT {

    private static final TableId ITEMS = TableId.of("tenant_a", "items");
    private static final TableId DEVICES = TableId.of("tenant_a", "devices");
    private static final TableId WORDS = TableId.of("tenant_a", "Words");
    private static final TableId MEMBERS = TableId.of("tenant_b", "memberships");

    private static void createTables(PlannerFixture f) throws Exception {
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA tenant_b",
            "CREATE TABLE tenant_a.items (id bigint PRIMARY KEY, name text)",
            "INSERT INTO tenant_a.items SELECT g * 3, 'item ' || g FROM generate_series(1, 50000) g",
            "CREATE TABLE tenant_a.devices (id uuid PRIMARY KEY, seen date)",
            "INSERT INTO tenant_a.devices SELECT gen_random_uuid(), date '2020-01-01' + g % 1000"
                + " FROM generate_series(1, 30000) g",
            "CREATE TABLE tenant_a.\"Words\" (word text PRIMARY KEY, n integer)",
            "INSERT INTO tenant_a.\"Words\" SELECT md5(g::text) || ' \"é', g FROM generate_series(1, 20000) g",
            "CREATE TABLE tenant_b.memberships (tenant text, member_id integer, PRIMARY KEY (tenant, member_id))",
            "INSERT INTO tenant_b.memberships SELECT 't' || (g % 13), g FROM generate_series(1, 20000) g",
            "ANALYZE");
    }

    private static List<ChunkTask> tasksOf(List<PlannerFixture.Read<TopicMessage>> read, TableId table) {
        List<ChunkTask> tasks = new ArrayList<>();
        for (PlannerFixture.Read<TopicMessage> r : read) {
            if (r.message() instanceof ChunkTask task && task.table().equals(table)) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    private static List<ChunkTask> distinctInOrder(List<ChunkTask> tasks) {
        return tasks.stream().collect(java.util.stream.Collectors.toMap(ChunkTask::chunkId, t -> t, (a, b) -> a))
            .values().stream().sorted(Comparator.comparingInt(t -> Integer.parseInt(
                t.chunkId().substring(t.chunkId().indexOf('#') + 1)))).toList();
    }

    @Test
    void everyTableALiveGroupReadsIsCutIntoRangesCoveringItExactlyOnce(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.ACTIVE, "tenant_a.%");
        f.group(GroupState.PROCESSING, "tenant_b.memberships", "tenant_a.items");

        try (SnapshotPlanner planner = f.planner(5000)) {
            PlanReport report = planner.planOnce();
            assertThat(report.opened()).isEqualTo(4);
        }

        List<PlannerFixture.Read<TopicMessage>> tasks = f.tasks();
        List<PlannerFixture.Read<TopicMessage>> rows = f.snapshotRows();
        for (TableId table : List.of(ITEMS, DEVICES, WORDS, MEMBERS)) {
            WindowProgress window = f.window(table);
            assertThat(window.state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            List<ChunkTask> chunks = distinctInOrder(tasksOf(tasks, table));
            assertThat(chunks).hasSize(window.chunksPlanned()).hasSizeGreaterThan(2);
            List<Long> counts = f.countsPerChunk(table, chunks.stream().map(ChunkTask::range).toList());
            long total = f.count(table, io.tributary.topics.messages.ChunkRange.all());
            assertThat(counts.stream().mapToLong(Long::longValue).sum()).as("rows of %s", table).isEqualTo(total);
            assertThat(counts).allSatisfy(n -> assertThat(n).isBetween(1L, 15_000L));
            assertThat(rows).filteredOn(r -> r.message() instanceof TablePlan plan && plan.table().equals(table))
                .hasSize(PlannerFixture.LAYOUT.partitions())
                .allSatisfy(r -> assertThat(((TablePlan) r.message()).chunkCount()).isEqualTo(chunks.size()));
        }
        assertThat(f.window(ITEMS).priority()).isEqualTo(SnapshotPriority.ACTIVE_SNAPSHOT);
        assertThat(f.window(MEMBERS).priority()).isEqualTo(SnapshotPriority.REPROCESS_SNAPSHOT);
        for (PlannerFixture.Read<TopicMessage> r : tasks) {
            ChunkTask task = (ChunkTask) r.message();
            assertThat(PlannerFixture.LAYOUT.priorityOf(r.partition())).isEqualTo(task.priority());
        }
    }

    @Test
    void theWindowMarkerIsCommittedInTheWalBeforeTheChunksArePublished(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.source.execute("SELECT pg_create_logical_replication_slot('markers', 'test_decoding')");
        f.group(GroupState.ACTIVE, "tenant_a.items");

        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
        }

        String windowId = f.window(ITEMS).window().windowId();
        List<String> messages = new ArrayList<>();
        try (Connection c = f.source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT data FROM pg_logical_slot_get_changes('markers', NULL, NULL,"
                 + " 'include-xids', '0')")) {
            while (rs.next()) {
                messages.add(rs.getString(1));
            }
        }
        assertThat(messages).filteredOn(m -> m.startsWith("message:")).singleElement().isEqualTo(
            "message: transactional: 1 prefix: tributary.window, sz: "
                + WindowMarkers.content(ITEMS, windowId).length() + " content:"
                + "{\"schema\":\"tenant_a\",\"table\":\"items\",\"window_id\":\"" + windowId + "\"}");
    }

    @Test
    void aRestartPlansNothingAgainAndRepublishesUnclaimedTasks(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.ACTIVE, "tenant_a.%", "tenant_b.%");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
            assertThat(planner.planOnce().didWork()).isFalse();
        }
        int published = f.tasks().size();
        List<WindowProgress> before = f.windows();

        PlanReport afterRestart;
        try (SnapshotPlanner planner = f.planner(5000)) {
            afterRestart = planner.planOnce();
        }

        assertThat(afterRestart.opened()).isZero();
        assertThat(afterRestart.resumed()).isEqualTo(4);
        assertThat(f.windows()).extracting(WindowProgress::window)
            .containsExactlyElementsOf(before.stream().map(WindowProgress::window).toList());
        assertThat(f.tasks()).hasSize(2 * published);
    }

    /**
     * Kafka removes tasks no worker took (retention while every snapshot worker was stopped longer than it;
     * {@code snapshot-tasks} deleted and created again): the next round finds that the log lost records and
     * publishes the task of every chunk not DONE again, so no window waits for good for a task that is gone.
     */
    @Test
    void tasksKafkaRemovedBeforeAWorkerTookThemArePublishedAgainByTheNextRound(TestServices services)
        throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.ACTIVE, "tenant_a.%", "tenant_b.%");
        try (SnapshotPlanner planner = f.planner(5000); Admin admin = Admin.create(services.kafkaProperties())) {
            planner.planOnce();
            List<String> chunks = chunkIds(f.tasks());
            assertThat(chunks).isNotEmpty();
            assertThat(planner.planOnce().didWork()).isFalse();

            TopicRetention.removeEveryRecord(admin, f.topics.snapshotTasks());
            assertThat(f.tasks()).isEmpty();
            assertThat(planner.planOnce().resumed()).isEqualTo(4);
            assertThat(chunkIds(f.tasks())).containsExactlyInAnyOrderElementsOf(chunks);
            assertThat(planner.planOnce().didWork()).isFalse();

            admin.deleteTopics(List.of(f.topics.snapshotTasks())).all().get();
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                TopicProvisioner.ensure(admin, f.topics, PlannerFixture.LAYOUT);
                return true;
            });
            assertThat(planner.planOnce().resumed()).isEqualTo(4);
            assertThat(chunkIds(f.tasks())).containsExactlyInAnyOrderElementsOf(chunks);
        }
    }

    private static List<String> chunkIds(List<PlannerFixture.Read<TopicMessage>> read) {
        return read.stream().map(PlannerFixture.Read::message).filter(ChunkTask.class::isInstance)
            .map(m -> ((ChunkTask) m).chunkId()).toList();
    }

    @Test
    void anInterruptedPlanIsFinishedOrReplaced(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.ACTIVE, "tenant_a.items", "tenant_a.devices");
        WindowKey stored = WindowKey.of("tenant_a", "items", "w-stored");
        WindowKey empty = WindowKey.of("tenant_a", "devices", "w-empty");
        try (Connection c = f.storage.connect()) {
            SnapshotProgress.open(c, Map.of(stored, SnapshotPriority.ACTIVE_SNAPSHOT,
                empty, SnapshotPriority.ACTIVE_SNAPSHOT));
            SnapshotProgress.storeChunks(c, List.of(new WindowPlan(stored, 50000, List.of(
                new PlannedChunk("w-stored#0", 0, Optional.empty(), Optional.of("[90000]")),
                new PlannedChunk("w-stored#1", 1, Optional.of("[90000]"), Optional.empty())))));
        }

        try (SnapshotPlanner planner = f.planner(5000)) {
            PlanReport report = planner.planOnce();
            assertThat(report.resumed()).isEqualTo(2);
            assertThat(report.opened()).isEqualTo(1);
        }

        assertThat(f.window(ITEMS).window()).isEqualTo(stored);
        assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
        assertThat(tasksOf(f.tasks(), ITEMS)).extracting(ChunkTask::chunkId)
            .containsExactlyInAnyOrder("w-stored#0", "w-stored#1");
        assertThat(f.window(DEVICES).window().windowId()).isNotEqualTo("w-empty");
        assertThat(f.window(DEVICES).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
    }

    @Test
    void aTableAnActiveGroupStartsReadingMovesToTheActiveQueue(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.ACTIVE, "tenant_a.items");
        SyncRulesGroup group = f.group(GroupState.PROCESSING, "tenant_b.memberships");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
            try (Connection c = f.storage.connect()) {
                SyncRulesGroups.transition(c, group.id(), GroupState.PROCESSING, GroupState.ACTIVE);
            }
            assertThat(planner.planOnce().promoted()).isEqualTo(1);
        }

        List<ChunkTask> tasks = tasksOf(f.tasks(), MEMBERS);
        int chunks = f.window(MEMBERS).chunksPlanned();
        assertThat(tasks).filteredOn(t -> t.priority() == TaskPriority.ACTIVE_SNAPSHOT).hasSize(chunks);
        assertThat(tasks).filteredOn(t -> t.priority() == TaskPriority.REPROCESS_SNAPSHOT).hasSize(chunks);
        assertThat(f.window(MEMBERS).priority()).isEqualTo(SnapshotPriority.ACTIVE_SNAPSHOT);
    }

    @Test
    void theFirstGroupsSnapshotIsActiveWhileNoGroupServesClients(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.group(GroupState.PROCESSING, "tenant_b.memberships");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
        }

        assertThat(f.window(MEMBERS).priority()).isEqualTo(SnapshotPriority.ACTIVE_SNAPSHOT);
        assertThat(tasksOf(f.tasks(), MEMBERS)).isNotEmpty()
            .allSatisfy(t -> assertThat(t.priority()).isEqualTo(TaskPriority.ACTIVE_SNAPSHOT));
    }

    @Test
    void aTableWithoutAKeyFailsWithTheReasonWhileOthersArePlanned(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.source.execute("CREATE TABLE tenant_a.logbook (line text)");
        f.group(GroupState.ACTIVE, "tenant_a.%");

        try (SnapshotPlanner planner = f.planner(5000)) {
            PlanReport report = planner.planOnce();
            assertThat(report.failed()).isEqualTo(1);
            assertThat(report.opened()).isEqualTo(3);
            assertThat(planner.planOnce().didWork()).isFalse();
        }

        WindowProgress failed = f.window(TableId.of("tenant_a", "logbook"));
        assertThat(failed.state()).isEqualTo(WindowStatus.FAILED);
        assertThat(failed.error().orElseThrow()).contains("\"tenant_a\".\"logbook\"");
    }

    @Test
    void aTableWaitsForThePublicationBeforeItsWindowOpens(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.source.execute("CREATE TABLE tenant_a.logbook (line text)", // never capturable: fails, never waits
            "CREATE PUBLICATION capture FOR TABLE tenant_a.items");
        SyncRulesGroup group = f.group(GroupState.PROCESSING, "tenant_a.items", "tenant_a.devices",
            "tenant_a.logbook");
        try (SnapshotPlanner planner = SnapshotPlanner.create(f.config(5000).withPublication("capture"),
            f.source::connect, f.storage::connect, PlannerFixture.PATTERNS)) {
            PlanReport first = planner.planOnce();

            assertThat(first.opened()).as("items only: devices is not published yet").isEqualTo(1);
            assertThat(first.failed()).as("logbook has no key").isEqualTo(1);
            assertThat(f.windows()).extracting(w -> w.window().table()).containsExactlyInAnyOrder("items", "logbook");
            assertThat(f.isPlanned(group)).as("a table of the group has no window yet").isFalse();
            assertThatThrownBy(() -> planner.resnapshot(DEVICES, TaskPriority.ACTIVE_SNAPSHOT))
                .isInstanceOf(PlanningException.class).hasMessageContaining("publication capture does not publish it");

            f.source.execute("ALTER PUBLICATION capture ADD TABLE tenant_a.devices");
            PlanReport second = planner.planOnce();

            assertThat(second.opened()).isEqualTo(1);
            assertThat(f.window(DEVICES).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            assertThat(f.isPlanned(group)).isTrue();
        }
    }

    @Test
    void noWindowOpensBeforeTheReplicationSlotIsConsistent(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        f.source.execute("CREATE PUBLICATION capture FOR TABLE tenant_a.items");
        SyncRulesGroup group = f.group(GroupState.PROCESSING, "tenant_a.items");
        String slot = services.uniqueName("slot");
        try (SnapshotPlanner planner = SnapshotPlanner.create(f.config(5000).withPublication("capture")
            .withSlot(slot), f.source::connect, f.storage::connect, PlannerFixture.PATTERNS)) {
            assertThat(planner.planOnce().opened()).as("no slot yet").isZero();

            CompletableFuture<Void> creation;
            try (Connection holder = f.source.connect(); Statement hold = holder.createStatement()) {
                holder.setAutoCommit(false);
                hold.execute("SELECT txid_current()"); // slot creation waits for this transaction to end
                creation = CompletableFuture.runAsync(() -> {
                    try {
                        f.source.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
                    } catch (SQLException e) {
                        throw new IllegalStateException("Cannot create slot " + slot, e);
                    }
                });
                await().atMost(Duration.ofSeconds(30)).until(() -> slotListed(f, slot));

                assertThat(planner.planOnce().opened()).as("the slot is listed but not consistent yet").isZero();
                assertThat(f.windows()).isEmpty();
                assertThat(f.isPlanned(group)).isFalse();
                assertThatThrownBy(() -> planner.resnapshot(ITEMS, TaskPriority.ACTIVE_SNAPSHOT))
                    .isInstanceOf(PlanningException.class).hasMessageContaining("replication slot " + slot);
                holder.commit();
            }
            creation.get(30, TimeUnit.SECONDS);

            assertThat(planner.planOnce().opened()).isEqualTo(1);
            assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            assertThat(f.isPlanned(group)).isTrue();
        } finally {
            f.source.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                + " WHERE slot_name = '" + slot + "'");
        }
    }

    /** Whether {@code slot} is listed (while being created too). */
    private static boolean slotListed(PlannerFixture f, String slot) throws Exception {
        try (Connection c = f.source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot
                 + "'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    @Test
    void aTableWithoutAKeyIsPlannedOnceItHasOne(TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        TableId logbook = TableId.of("tenant_a", "logbook");
        f.source.execute("CREATE TABLE tenant_a.logbook (id int NOT NULL, line text)");
        f.group(GroupState.ACTIVE, "tenant_a.logbook");
        try (SnapshotPlanner planner = f.planner(5000)) {
            assertThat(planner.planOnce().failed()).isEqualTo(1);
            WindowKey failed = f.window(logbook).window();
            assertThat(planner.planOnce().didWork()).as("still no key: nothing planned, nothing failed again")
                .isFalse();

            f.source.execute("ALTER TABLE tenant_a.logbook ADD PRIMARY KEY (id)");
            PlanReport report = planner.planOnce();

            assertThat(report.opened()).isEqualTo(1);
            assertThat(f.window(logbook).window()).isNotEqualTo(failed);
            assertThat(f.window(logbook).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
        }
    }

    @Test
    void aFailedTableIsPlannedAgainOnlyWhenAskedToAndItsChunksWaitUntilTheTableLogHoldsItsTruncation(
        TestServices services) throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        createTables(f);
        SyncRulesGroup group = f.group(GroupState.ACTIVE, "tenant_a.items");
        try (SnapshotPlanner planner = f.planner(5000)) {
            planner.planOnce();
            WindowKey first = f.window(ITEMS).window();
            try (Connection c = f.storage.connect()) {
                SnapshotProgress.fail(c, first, "permission denied for table items");
            }
            assertThat(planner.planOnce().didWork()).isFalse();
            int tasksBefore = f.tasks().size();
            assertThat(planner.resnapshot(ITEMS, TaskPriority.ACTIVE_SNAPSHOT)).isPresent();
            assertThat(planner.resnapshot(ITEMS, TaskPriority.ACTIVE_SNAPSHOT)).isEmpty();

            WindowKey second = f.window(ITEMS).window();
            assertThat(second).isNotEqualTo(first);
            String past = f.markerPosition(ITEMS);
            f.sealed(group, 7, past, 0, 1);
            planner.planOnce();
            assertThat(f.window(ITEMS).state()).as("a barrier past the truncation is sealed in 2 of 3 partitions")
                .isEqualTo(WindowStatus.PLANNING);
            assertThat(f.window(ITEMS).chunksPlanned()).isZero();
            assertThat(f.tasks()).hasSize(tasksBefore);

            f.sealed(group, 7, past, 2);
            assertThat(planner.planOnce().resumed()).isEqualTo(1);
            assertThat(f.window(ITEMS).window()).isEqualTo(second);
            assertThat(f.window(ITEMS).state()).isEqualTo(WindowStatus.SNAPSHOTTING);
            assertThat(f.tasks()).hasSizeGreaterThan(tasksBefore);
        }
    }
}
