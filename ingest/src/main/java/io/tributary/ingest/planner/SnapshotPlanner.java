package io.tributary.ingest.planner;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.storage.groups.SealedBarriers;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.SnapshotChunks;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.SnapshotPriority;
import io.tributary.storage.progress.StoredChunk;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot planner (one active instance, beside ingest): opens a snapshot window for every table a live sync
 * rules group reads that has no window yet, cuts it into primary key range chunks and queues their tasks with the
 * priority of docs/design.md ({@link WindowPlanning} has the steps).
 *
 * <p>Each round ({@link #planOnce()}, or every {@link PlannerConfig#interval()} after {@link #start()}):
 * <ul>
 *   <li>finishes windows left PLANNING by an interrupted round: one with stored chunks gets its plan and pending
 *       tasks published again; a window replacing its table's rows whose marker is in the WAL (it waits there
 *       until the table log holds the truncation in every partition: {@link WindowPlanning}) is cut into chunks
 *       once that holds; any other is replaced by a new window (a new marker) in the transaction that opens it, so
 *       its table is never without a window in between (nor unrequired by checkpoints), or discarded if no live
 *       group reads its table any more;</li>
 *   <li>in its first round after start, publishes again the tasks of chunks no worker claimed yet (they may have
 *       been lost with the previous instance), and in any round after Kafka removed records of
 *       {@code snapshot-tasks} ({@link TaskLogWatch}) the tasks of every chunk not DONE; re-publishing is harmless,
 *       because workers take attempts from storage and skip DONE chunks;</li>
 *   <li>moves the remaining tasks of a window planned for reprocessing to the active queue once an ACTIVE group
 *       needs its table;</li>
 *   <li>records a FAILED window for a table a live group's writers applied rows of that has none and no longer
 *       exists in the source ({@link DroppedTables}): nothing else would release the checkpoints it holds;</li>
 *   <li>checks each table about to get a window against the rules of every live group that reads it
 *       ({@link RowIdCheck}: an id that is not the table's primary key holds that group's checkpoints);</li>
 *   <li>plans the needed tables that have no window: a DONE window is never re-planned, nor a FAILED one (see
 *       {@link #resnapshot(TableId, TaskPriority)}), except a table that could not be described (no key, a column
 *       of an unsupported type) and can be now: someone fixed it, so it gets a new window;</li>
 *   <li>once every table has its window (FAILED ones included), marks the live groups it read at its start
 *       planned ({@code sync_rules.planned_at}): their checkpoints are held until then, because a table without
 *       a window does not hold them. A failed round marks nothing.</li>
 * </ul>
 * Rounds are serialized; the planner is thread-safe.
 */
public final class SnapshotPlanner implements Stage {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotPlanner.class);

    private final PlannerConfig config;
    private final SqlConnector source;
    private final SqlConnector storage;
    private final RulesMatcher rules;
    private final PlanPublisher publisher;
    private final WindowPlanning planning;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Set<WindowKey> reportedWaiting = new HashSet<>();
    private final Admin admin;
    private final TaskLogWatch taskLog;
    private Thread loop;
    private boolean recovered;
    private volatile Throwable failure;

    private SnapshotPlanner(PlannerConfig config, SqlConnector source, SqlConnector storage, RulesMatcher rules) {
        this.config = config;
        this.source = source;
        this.storage = storage;
        this.rules = rules;
        Map<String, Object> settings = new HashMap<>(config.kafka());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.publisher = new PlanPublisher(
            cluster -> new KafkaProducer<>(settings, cluster, new ByteArraySerializer()),
            config.topics(), config.layout());
        this.planning = new WindowPlanning(new ChunkSplitter(config.chunkRows(), config.maxSampleRows()), publisher);
        this.admin = Admin.create(config.kafka());
        this.taskLog = new TaskLogWatch(config.topics().snapshotTasks(), Duration.ofSeconds(10));
    }

    /**
     * A planner reading the source through {@code source}, progress and groups through {@code storage}, matching
     * tables with {@code rules}. Provisions the topics first (waiting for partition leaders). Call {@link #start()}
     * for the periodic loop, or {@link #planOnce()}.
     */
    public static SnapshotPlanner create(PlannerConfig config, SqlConnector source, SqlConnector storage,
                                         RulesMatcher rules) {
        Objects.requireNonNull(config, "config");
        try (Admin admin = Admin.create(config.kafka())) {
            TopicProvisioner.ensure(admin, config.topics(), config.layout());
        }
        return new SnapshotPlanner(config, Objects.requireNonNull(source, "source"),
            Objects.requireNonNull(storage, "storage"), Objects.requireNonNull(rules, "rules"));
    }

    /**
     * Runs one planning round (see the class comment).
     *
     * @throws SQLException      if the source or storage failed (the next round resumes)
     * @throws PlanningException if Kafka did not acknowledge the plans or tasks (the next round resumes)
     */
    public synchronized PlanReport planOnce() throws SQLException {
        long start = System.nanoTime();
        try (Connection store = storage.connect(); Connection src = source.connect()) {
            int resumed = 0;
            boolean lostTasks = taskLog.lostRecords(admin);
            if (!recovered || lostTasks) {
                resumed += republishPending(store, lostTasks);
                recovered = true;
            }
            TableDemand demand = TableDemand.read(store, src, rules);
            DroppedTables.recordWindows(store, src);
            Map<TableId, WindowProgress> latest = new HashMap<>();
            for (WindowProgress window : SnapshotProgress.latestWindows(store)) {
                latest.put(TableId.of(window.window().schema(), window.window().table()), window);
            }
            Map<TableId, WindowKey> interrupted = new HashMap<>();
            Map<WindowKey, String> marked = SnapshotProgress.replacingWithoutChunks(store);
            Map<WindowKey, TaskPriority> markedOnly = new LinkedHashMap<>();
            for (Map.Entry<TableId, WindowProgress> entry : latest.entrySet()) {
                WindowProgress window = entry.getValue();
                if (window.state() != WindowStatus.PLANNING) {
                    continue;
                }
                if (window.chunksPlanned() > 0) {
                    resumed += resume(store, window) ? 1 : 0;
                } else if (marked.containsKey(window.window())) {
                    markedOnly.put(window.window(), TaskPriority.valueOf(window.priority().name()));
                } else if (demand.tables().containsKey(entry.getKey())) {
                    interrupted.put(entry.getKey(), window.window());
                } else {
                    LOG.info("Discarding window {}: its planning was interrupted before its chunks were stored,"
                        + " and no live group reads its table now", window.window());
                    SnapshotProgress.discard(store, window.window());
                }
            }
            resumed += continueMarked(store, src, markedOnly, marked);
            Map<TableId, TaskPriority> toPlan = new LinkedHashMap<>();
            SourceCatalog catalog = new SourceCatalog(src);
            int promoted = 0;
            for (Map.Entry<TableId, TaskPriority> entry : demand.tables().entrySet()) {
                Optional<WindowProgress> window = Optional.ofNullable(latest.get(entry.getKey()))
                    .filter(w -> !interrupted.containsKey(entry.getKey()))
                    .flatMap(w -> reload(store, w));
                if (window.isEmpty() || fixedSinceItFailed(catalog, entry.getKey(), window.get())) {
                    toPlan.put(entry.getKey(), entry.getValue());
                } else if (window.get().state().isOpen() && entry.getValue() == TaskPriority.ACTIVE_SNAPSHOT
                    && window.get().priority() != SnapshotPriority.ACTIVE_SNAPSHOT) {
                    promoted += promote(store, window.get()) ? 1 : 0;
                }
            }
            Set<TableId> waiting = CaptureGate.waiting(src, config, toPlan.keySet());
            toPlan.keySet().removeAll(waiting);
            RowIdCheck.Checked checked = RowIdCheck.beforeWindows(store, src, rules, toPlan.keySet());
            WindowPlanning.Outcome outcome = planInBatches(store, src, toPlan, interrupted);
            checked.clearFitting(store);
            // A table waiting for capture has no window yet: no group is planned before it has one.
            List<Long> planned = waiting.isEmpty() ? SyncRulesGroups.markPlanned(store, demand.groups()) : List.of();
            if (!planned.isEmpty()) {
                LOG.info("Snapshot of sync rules groups {} planned: every table they read has a window", planned);
            }
            PlanReport report = new PlanReport(outcome.opened(), resumed + interrupted.size(), promoted,
                outcome.failed(), outcome.chunks(), Duration.ofNanos(System.nanoTime() - start));
            if (report.didWork()) {
                LOG.info("Snapshot planning round: {} windows opened ({} chunks), {} resumed, {} promoted, {} failed,"
                    + " in {} ms", report.opened(), report.chunks(), report.resumed(), report.promoted(),
                    report.failed(), report.took().toMillis());
            }
            return report;
        }
    }

    /**
     * Opens a new window for {@code table} whatever its previous windows (e.g. after fixing the permission that
     * failed it, or to re-snapshot a DONE table), unless one is open.
     *
     * @return the new window's id, empty if the table has an open window or is not a table
     * @throws PlanningException if the capture's publication does not publish the table yet ({@link CaptureGate}),
     *                           or a live group's rules read it with an id that is not its primary key
     *                           ({@link RowIdCheck}; a window whose check passes releases the group)
     */
    public synchronized Optional<String> resnapshot(TableId table, TaskPriority priority) throws SQLException {
        try (Connection store = storage.connect(); Connection src = source.connect()) {
            if (config.slot().isPresent() && !CaptureGate.slotConsistent(src, config.slot().get())) {
                throw new PlanningException("Not snapshotting " + table.quoted() + " yet: replication slot "
                    + config.slot().get() + " does not exist or is still being created (ingest creates it; creation"
                    + " waits for running source transactions to end); try again once ingest is active");
            }
            if (config.publication().isPresent()
                && !CaptureGate.notYetCaptured(src, config.publication().get(), List.of(table)).isEmpty()) {
                throw new PlanningException("Not snapshotting " + table.quoted() + " yet: publication "
                    + config.publication().get() + " does not publish it; ingest adds it at its next table refresh"
                    + " (its log says why if it cannot), then the planner snapshots it by itself");
            }
            RowIdCheck.Checked checked = RowIdCheck.beforeWindows(store, src, rules, List.of(table));
            if (!checked.problems().isEmpty()) {
                throw new PlanningException("Not snapshotting " + table.quoted() + ": "
                    + String.join(" ", checked.problems().get(table)));
            }
            WindowPlanning.Outcome outcome = planning.plan(store, src, Map.of(table, priority), Map.of());
            if (outcome.opened() == 0) {
                return Optional.empty();
            }
            checked.clearFitting(store);
            return SnapshotProgress.latest(store, table.schema(), table.name()).map(w -> w.window().windowId());
        }
    }

    private WindowPlanning.Outcome planInBatches(Connection store, Connection src, Map<TableId, TaskPriority> tables,
                                                 Map<TableId, WindowKey> replacing) throws SQLException {
        int opened = 0;
        int failed = 0;
        int chunks = 0;
        List<Map.Entry<TableId, TaskPriority>> all = new ArrayList<>(tables.entrySet());
        for (int from = 0; from < all.size(); from += config.batchTables()) {
            Map<TableId, TaskPriority> batch = new LinkedHashMap<>();
            for (Map.Entry<TableId, TaskPriority> entry : all.subList(from, Math.min(all.size(),
                from + config.batchTables()))) {
                batch.put(entry.getKey(), entry.getValue());
            }
            Map<TableId, WindowKey> replaced = new HashMap<>();
            for (TableId table : batch.keySet()) {
                Optional.ofNullable(replacing.get(table)).ifPresent(w -> replaced.put(table, w));
            }
            WindowPlanning.Outcome outcome = planning.plan(store, src, batch, replaced);
            opened += outcome.opened();
            failed += outcome.failed();
            chunks += outcome.chunks();
        }
        return new WindowPlanning.Outcome(opened, failed, chunks);
    }

    /**
     * Cuts the windows of {@code waiting} (PLANNING, their markers in the WAL at the positions of {@code marked},
     * no chunks) whose markers' transaction the table log holds in every partition, as the storage writers' seals
     * show; the others wait for a later round.
     *
     * @return how many were cut
     */
    private int continueMarked(Connection store, Connection src, Map<WindowKey, TaskPriority> waiting,
                               Map<WindowKey, String> marked) throws SQLException {
        Map<WindowKey, TaskPriority> passed = new LinkedHashMap<>();
        Map<String, Boolean> passedAt = new HashMap<>();
        for (Map.Entry<WindowKey, TaskPriority> entry : waiting.entrySet()) {
            String lsn = marked.get(entry.getKey());
            Boolean merged = passedAt.get(lsn);
            if (merged == null) {
                merged = SealedBarriers.passedEverywhere(store, lsn, config.layout().partitions());
                passedAt.put(lsn, merged);
            }
            if (merged) {
                passed.put(entry.getKey(), entry.getValue());
                reportedWaiting.remove(entry.getKey());
            } else if (reportedWaiting.add(entry.getKey())) {
                LOG.info("Snapshot window {} waits until the table log holds the truncation of its table in every"
                    + " partition: a live group's storage writers sealing a barrier at or past {} in each (the"
                    + " stream workers and a group's storage writers must be running)", entry.getKey(), lsn);
            }
        }
        if (passed.isEmpty()) {
            return 0;
        }
        planning.continueMarked(store, src, passed);
        return passed.size();
    }

    /** Whether {@code window} failed because its table could not be described, and it can be now. */
    private static boolean fixedSinceItFailed(SourceCatalog catalog, TableId table, WindowProgress window)
        throws SQLException {
        if (!window.failedBeforePlanning()) {
            return false;
        }
        try {
            catalog.describe(table);
        } catch (SourceSchemaException e) {
            return false;
        }
        LOG.info("{} can be replicated now (window {} failed: {}); planning a new snapshot", table.quoted(),
            window.window().windowId(), window.error().orElse(""));
        return true;
    }

    /** The window as it is now (a PLANNING one may have been finished by {@link #resume}). */
    private static Optional<WindowProgress> reload(Connection store, WindowProgress window) {
        if (window.state() != WindowStatus.PLANNING) {
            return Optional.of(window);
        }
        try {
            return SnapshotProgress.find(store, window.window());
        } catch (SQLException e) {
            throw new PlanningException("Cannot reload window " + window.window() + ": " + e.getMessage(), e);
        }
    }

    /** Finishes an interrupted plan whose chunks were stored: publishes its plan and pending tasks again. */
    private boolean resume(Connection store, WindowProgress window) throws SQLException {
        WindowKey key = window.window();
        TableId table = TableId.of(key.schema(), key.table());
        publisher.plan(TablePlan.of(table, key.windowId(), window.chunksPlanned()));
        publisher.tasks(tasks(SnapshotChunks.pending(store, key)));
        publisher.flush();
        SnapshotProgress.markSnapshotting(store, List.of(key));
        LOG.info("Resumed the interrupted planning of window {}", key);
        return true;
    }

    /**
     * Publishes again, in every SNAPSHOTTING window, the tasks of chunks no worker claimed yet, or of every chunk not
     * DONE when {@code claimedToo} (the log lost tasks: a claimed chunk's task is redelivered only from the log).
     */
    private int republishPending(Connection store, boolean claimedToo) throws SQLException {
        int windows = 0;
        for (WindowProgress window : SnapshotProgress.latestWindows(store)) {
            if (window.state() != WindowStatus.SNAPSHOTTING) {
                continue;
            }
            List<StoredChunk> pending = SnapshotChunks.pending(store, window.window()).stream()
                .filter(c -> claimedToo || c.attempt() == 0).toList();
            if (!pending.isEmpty()) {
                publisher.tasks(tasks(pending));
                windows++;
            }
        }
        publisher.flush();
        return windows;
    }

    private boolean promote(Connection store, WindowProgress window) throws SQLException {
        List<StoredChunk> moved = SnapshotProgress.reprioritize(store, window.window(),
            SnapshotPriority.ACTIVE_SNAPSHOT);
        if (moved.isEmpty()) {
            return false;
        }
        publisher.tasks(tasks(moved));
        publisher.flush();
        LOG.info("Snapshot window {} is needed by an active group: {} remaining chunks moved to the active queue",
            window.window(), moved.size());
        return true;
    }

    private static List<ChunkTask> tasks(List<StoredChunk> chunks) {
        List<ChunkTask> tasks = new ArrayList<>();
        for (StoredChunk chunk : chunks) {
            ChunkRange range = new ChunkRange(chunk.lo().map(KeyValues::of), chunk.hi().map(KeyValues::of));
            tasks.add(ChunkTask.first(chunk.chunkId(), TableId.of(chunk.window().schema(), chunk.window().table()),
                range, TaskPriority.valueOf(chunk.priority().name()), chunk.window().windowId()));
        }
        return tasks;
    }

    /** Starts planning rounds every {@link PlannerConfig#interval()} on a daemon thread; failures are retried. */
    public synchronized void start() {
        if (loop != null) {
            throw new IllegalStateException("The snapshot planner is started already");
        }
        loop = new Thread(this::runLoop, "tributary-snapshot-planner");
        loop.setDaemon(true);
        loop.start();
    }

    /**
     * Plans in rounds until stopped. A failed round is retried by the next one; an {@link Error} (a broken JVM or
     * class path, out of memory) ends the loop and is kept as {@link #failure()}, so the process becomes unhealthy
     * instead of planning nothing while looking alive.
     */
    private void runLoop() {
        try {
            do {
                try {
                    planOnce();
                } catch (SQLException | RuntimeException e) {
                    LOG.warn("Snapshot planning round failed (the next round resumes): {}", e.toString());
                }
            } while (!stopped.await(config.interval().toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            failure = e;
            LOG.error("The snapshot planner stopped: {}", e.toString(), e);
        }
    }

    /** The error that stopped the planning loop, if one did. */
    @Override
    public String stageName() {
        return "the snapshot planner";
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Stops the loop (after its current round) and closes the producer and the admin client. */
    @Override
    public void close() {
        stopped.countDown();
        Thread running;
        synchronized (this) {
            running = loop;
        }
        if (running != null) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        publisher.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(10));
    }
}
