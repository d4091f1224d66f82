package io.tributary.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.progress.SnapshotChunks;
import io.tributary.storage.progress.StoredChunk;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

@RealServices
class SnapshotWorkersIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final TableId ITEMS = TableId.of("tenant_a", "items");
    private static final TableId DEVICES = TableId.of("tenant_a", "devices");
    private static final TableId WORDS = TableId.of("tenant_a", "Words");
    private static final TableId MEMBERS = TableId.of("tenant_b", "memberships");

    private static void createTables(SnapshotFixture f) throws Exception {
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA tenant_b",
            "CREATE TABLE tenant_a.items (id integer PRIMARY KEY, name text, price numeric(10,2), tags text[],"
                + " created timestamptz)",
            "INSERT INTO tenant_a.items SELECT g, 'item ' || g, g / 7.0, ARRAY['a' || (g % 3), 'b'],"
                + " timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute' FROM generate_series(1, 10000) g",
            "CREATE TABLE tenant_a.devices (id uuid PRIMARY KEY, payload jsonb, seen date)",
            "INSERT INTO tenant_a.devices SELECT gen_random_uuid(), jsonb_build_object('n', g, 'ok', g % 2 = 0),"
                + " date '2020-01-01' + g FROM generate_series(1, 3000) g",
            "CREATE TABLE tenant_a.\"Words\" (word text PRIMARY KEY, n bigint NOT NULL, note varchar(20))",
            "INSERT INTO tenant_a.\"Words\" SELECT 'w' || lpad(g::text, 5, '0') || CASE WHEN g % 5 = 0 THEN ' é\"x'"
                + " ELSE '' END, g::bigint * 1000000000, NULL FROM generate_series(1, 2000) g",
            "CREATE TABLE tenant_b.memberships (tenant text, member_id integer, role text NOT NULL,"
                + " PRIMARY KEY (tenant, member_id))",
            "INSERT INTO tenant_b.memberships SELECT 't' || (g % 7), g, CASE WHEN g % 2 = 0 THEN 'admin' ELSE"
                + " 'user' END FROM generate_series(1, 3000) g");
    }

    private static List<ChunkTask> planAll(SnapshotFixture f, TaskPriority priority) throws Exception {
        List<ChunkTask> tasks = new ArrayList<>();
        tasks.addAll(f.plan(ITEMS, priority, List.of("[2000]", "[4000]", "[6000]", "[8000]")));
        tasks.addAll(f.plan(DEVICES, priority, List.of(f.keyAt(DEVICES, 1000), f.keyAt(DEVICES, 2000))));
        tasks.addAll(f.plan(WORDS, priority, List.of(f.keyAt(WORDS, 700), f.keyAt(WORDS, 1400))));
        tasks.addAll(f.plan(MEMBERS, priority, List.of(f.keyAt(MEMBERS, 1000), f.keyAt(MEMBERS, 2000))));
        return tasks;
    }

    private static void awaitState(SnapshotFixture f, TableId table, WindowStatus state) {
        await().atMost(PATIENCE).untilAsserted(() ->
            assertThat(f.window(table).map(WindowProgress::state)).contains(state));
    }

    @Test
    void aSnapshotSplitAcrossThreeWorkersInTwoProcessesMatchesTheSource(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        createTables(f);
        Set<String> loops = ConcurrentHashMap.newKeySet();
        List<ChunkTask> tasks;
        ChunkListener recorder = new ChunkListener() {
            @Override
            public void chunkStarted(ChunkTask task) {
                loops.add(Thread.currentThread().getName());
            }
        };

        try (SnapshotWorkers first = SnapshotWorkers.start(f.config(2), recorder);
             SnapshotWorkers second = SnapshotWorkers.start(f.config(1), recorder)) {
            f.awaitMembers(f.config(1), 3);
            tasks = planAll(f, TaskPriority.ACTIVE_SNAPSHOT);
            for (TableId table : List.of(ITEMS, DEVICES, WORDS, MEMBERS)) {
                awaitState(f, table, WindowStatus.DONE);
            }
            assertThat(first.failure()).isEmpty();
            assertThat(second.failure()).isEmpty();
        }

        List<SnapshotFixture.Published> published = f.snapshotRows();
        for (TableId table : List.of(ITEMS, DEVICES, WORDS, MEMBERS)) {
            assertThat(SnapshotFixture.newestAttemptRows(published, table)).isEqualTo(f.sourceRows(table));
            WindowProgress window = f.window(table).orElseThrow();
            assertThat(window.rowsDone()).isEqualTo(f.sourceRows(table).size());
            assertThat(window.highWatermark()).isPresent();
        }
        long doneMarkers = published.stream().filter(p -> p.message() instanceof ChunkDone).count();
        assertThat(doneMarkers).isGreaterThanOrEqualTo((long) tasks.size() * SnapshotFixture.LAYOUT.partitions());
        assertThat(loops).hasSizeGreaterThan(1);
    }

    @Test
    void aChunkKilledMidReadCompletesOnAnotherWorkerWithAHigherAttempt(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a",
            "CREATE TABLE tenant_a.items (id integer PRIMARY KEY, name text)",
            "INSERT INTO tenant_a.items SELECT g, 'item ' || g FROM generate_series(1, 5000) g");
        f.plan(ITEMS, TaskPriority.ACTIVE_SNAPSHOT, List.of());
        CountDownLatch midChunk = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ChunkListener stall = new ChunkListener() {
            @Override
            public void rowsRead(ChunkTask task, long rows) {
                if (task.attempt() == 1 && rows >= 100 && rows < 5000) {
                    midChunk.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        SnapshotWorkerConfig config = f.config(1).withRead(ReadSettings.DEFAULT.withFetchRows(100));

        SnapshotWorkers doomed = SnapshotWorkers.start(config, stall);
        await().atMost(PATIENCE).until(() -> midChunk.getCount() == 0);
        await().atMost(PATIENCE).until(() -> f.snapshotRows().stream().anyMatch(p ->
            p.message() instanceof SnapshotRow row && row.attempt() == 1));
        doomed.abort();
        try (SnapshotWorkers survivor = SnapshotWorkers.start(config)) {
            awaitState(f, ITEMS, WindowStatus.DONE);
        }

        try (Connection c = f.storage.connect()) {
            StoredChunk chunk = SnapshotChunks.find(c, "w-items#0").orElseThrow();
            assertThat(chunk.attempt()).isEqualTo(2);
        }
        List<SnapshotFixture.Published> published = f.snapshotRows();
        assertThat(published).anySatisfy(p -> assertThat(p.message()).isInstanceOfSatisfying(SnapshotRow.class,
            row -> assertThat(row.attempt()).isEqualTo(1)));
        assertThat(published).noneSatisfy(p -> assertThat(p.message()).isInstanceOfSatisfying(ChunkDone.class,
            done -> assertThat(done.attempt()).isEqualTo(1)));
        assertThat(SnapshotFixture.newestAttemptRows(published, ITEMS)).isEqualTo(f.sourceRows(ITEMS));
    }

    @Test
    void aLostSourceConnectionRetriesTheChunkAsANewAttempt(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a",
            "CREATE TABLE tenant_a.items (id integer PRIMARY KEY, name text)",
            "INSERT INTO tenant_a.items SELECT g, 'item ' || g FROM generate_series(1, 5000) g");
        f.plan(ITEMS, TaskPriority.ACTIVE_SNAPSHOT, List.of());
        CountDownLatch midChunk = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        ChunkListener stall = new ChunkListener() {
            @Override
            public void rowsRead(ChunkTask task, long rows) {
                if (task.attempt() == 1 && rows == 100) {
                    midChunk.countDown();
                    try {
                        resume.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        SnapshotWorkerConfig config = f.config(1).withRead(ReadSettings.DEFAULT.withFetchRows(100));

        try (SnapshotWorkers workers = SnapshotWorkers.start(config, stall)) {
            await().atMost(PATIENCE).until(() -> midChunk.getCount() == 0);
            f.source.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE application_name LIKE 'tributary %' AND datname = current_database()");
            resume.countDown();
            awaitState(f, ITEMS, WindowStatus.DONE);
            assertThat(workers.failure()).isEmpty();
        }

        try (Connection c = f.storage.connect()) {
            assertThat(SnapshotChunks.find(c, "w-items#0").orElseThrow().attempt()).isEqualTo(2);
        }
        assertThat(SnapshotFixture.newestAttemptRows(f.snapshotRows(), ITEMS)).isEqualTo(f.sourceRows(ITEMS));
    }

    @Test
    void activeChunksAllStartBeforeAnyReprocessChunk(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        createTables(f);
        List<ChunkTask> reprocess = new ArrayList<>();
        reprocess.addAll(f.plan(DEVICES, TaskPriority.REPROCESS_SNAPSHOT,
            List.of(f.keyAt(DEVICES, 1000), f.keyAt(DEVICES, 2000))));
        reprocess.addAll(f.plan(MEMBERS, TaskPriority.REPROCESS_SNAPSHOT,
            List.of(f.keyAt(MEMBERS, 1000), f.keyAt(MEMBERS, 2000))));
        List<ChunkTask> active = new ArrayList<>();
        active.addAll(f.plan(ITEMS, TaskPriority.ACTIVE_SNAPSHOT, List.of("[2000]", "[4000]", "[6000]", "[8000]")));
        active.addAll(f.plan(WORDS, TaskPriority.ACTIVE_SNAPSHOT, List.of(f.keyAt(WORDS, 700),
            f.keyAt(WORDS, 1400))));
        List<TaskPriority> starts = Collections.synchronizedList(new ArrayList<>());
        ChunkListener recorder = new ChunkListener() {
            @Override
            public void chunkStarted(ChunkTask task) {
                starts.add(task.priority());
            }
        };

        try (SnapshotWorkers first = SnapshotWorkers.start(f.config(2), recorder);
             SnapshotWorkers second = SnapshotWorkers.start(f.config(1), recorder)) {
            for (TableId table : List.of(ITEMS, DEVICES, WORDS, MEMBERS)) {
                awaitState(f, table, WindowStatus.DONE);
            }
        }

        assertThat(starts).hasSize(active.size() + reprocess.size());
        assertThat(starts.subList(0, active.size())).containsOnly(TaskPriority.ACTIVE_SNAPSHOT);
    }

    @Test
    void aMissingTableFailsWithAMessageWhileOtherTablesComplete(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        createTables(f);
        planAll(f, TaskPriority.ACTIVE_SNAPSHOT);
        f.source.execute("DROP TABLE tenant_a.devices");

        try (SnapshotWorkers workers = SnapshotWorkers.start(f.config(2))) {
            awaitState(f, DEVICES, WindowStatus.FAILED);
            for (TableId table : List.of(ITEMS, WORDS, MEMBERS)) {
                awaitState(f, table, WindowStatus.DONE);
            }
            assertThat(workers.failure()).isEmpty();
        }

        assertThat(f.window(DEVICES).orElseThrow().error().orElseThrow())
            .contains("\"tenant_a\".\"devices\"").contains("does not exist");
    }

    @Test
    void smallTablesReadTogetherMatchTheSourceAndAMissingOneFailsAlone(TestServices services) throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        List<TableId> tables = new ArrayList<>();
        f.source.execute("CREATE SCHEMA tenant_s");
        for (int i = 0; i < 24; i++) {
            TableId table = TableId.of("tenant_s", "t" + i);
            tables.add(table);
            f.source.execute("CREATE TABLE " + table.quoted() + " (id integer PRIMARY KEY, note text)",
                "INSERT INTO " + table.quoted() + " SELECT g, 'row ' || g || ' of t" + i + "'"
                    + " FROM generate_series(1, 5) g");
        }
        for (TableId table : tables) {
            f.plan(table, TaskPriority.ACTIVE_SNAPSHOT, List.of());
        }
        TableId missing = tables.get(13);
        f.source.execute("DROP TABLE " + missing.quoted());

        try (SnapshotWorkers workers = SnapshotWorkers.start(f.config(1))) {
            awaitState(f, missing, WindowStatus.FAILED);
            for (TableId table : tables) {
                if (!table.equals(missing)) {
                    awaitState(f, table, WindowStatus.DONE);
                }
            }
            assertThat(workers.failure()).isEmpty();
        }

        assertThat(f.window(missing).orElseThrow().error().orElseThrow())
            .contains(missing.quoted()).contains("does not exist");
        List<SnapshotFixture.Published> published = f.snapshotRows();
        for (TableId table : tables) {
            if (!table.equals(missing)) {
                assertThat(SnapshotFixture.newestAttemptRows(published, table)).isEqualTo(f.sourceRows(table));
            }
        }
    }
}
