package io.tributary.launcher.run;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.lifecycle.TableLogRecovery;
import io.tributary.postgres.SqlErrors;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.topics.TopicNames;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.TableLogLostException;
import io.tributary.writer.WriterConfig;
import io.tributary.writer.lifecycle.GroupLifecycle;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage role: keeps one {@link StorageWriter} running in this process for every live sync rules group
 * (a replaying group with fewer loops than the ACTIVE one), stops the writers of groups that are no longer live,
 * restarts a failed writer on the next pass, and moves groups through their lifecycle ({@link GroupLifecycle}).
 * One pass every {@code interval}, and one at once after a writer of a PROCESSING group publishes a checkpoint:
 * a group becomes ACTIVE with its first complete checkpoint (or once it caught up with the ACTIVE group), not up
 * to an interval later.
 *
 * <p>A group whose writers cannot resume on the {@code rows} log Kafka holds ({@link TableLogLostException}) gets no
 * writer again from this supervisor: it keeps serving its last checkpoint while {@link TableLogRecovery} rebuilds the
 * table log and deploys its replacement. When that needs a snapshot and this process does not run the planner, the
 * supervisor stops for good with that as its {@link #failure()} (the process stops, naming {@code tributary recover}).
 *
 * <p>A {@link Stage}: a writer that fails is restarted by the next pass and is not a failure of the stage; only a
 * recovery this process cannot make is. Thread-safe.
 */
final class WriterSupervisor implements Stage {

    private static final Logger LOG = LoggerFactory.getLogger(WriterSupervisor.class);
    /** How long a stopped group's writers get to leave before its storage is cleared. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Properties kafka;
    private final TopicNames topics;
    private final JdbcEndpoint storage;
    private final int batchRows;
    private final int threads;
    private final MeterRegistry registry;
    private final Map<Long, StorageWriter> writers = new HashMap<>();
    private final Map<Long, WriterMeters> meters = new HashMap<>();
    private final Map<Long, Integer> loops = new HashMap<>();
    /** Groups whose writers cannot resume on the rows log Kafka holds: never restarted by this supervisor. */
    private final Map<Long, TableLogLostException> lost = new HashMap<>();
    private final Optional<TableLogRecovery.TableRebuild> rebuild;
    private boolean recovered = true;
    private volatile Optional<Throwable> failure = Optional.empty();
    /** The PROCESSING groups as of the last pass: their checkpoints may make them ACTIVE. */
    private volatile Set<Long> processing = Set.of();
    private final AtomicBoolean passQueued = new AtomicBoolean();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "writer-supervisor");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param rebuild how this process snapshots every table again when the rows log a group read is lost; empty if
     *     it does not run the snapshot planner (such a loss then stops it, naming the recovery command)
     */
    WriterSupervisor(Properties kafka, TopicNames topics, JdbcEndpoint storage, int batchRows, int threads,
                     MeterRegistry registry, Optional<TableLogRecovery.TableRebuild> rebuild) {
        this.registry = registry;
        this.rebuild = rebuild;
        this.kafka = kafka;
        this.topics = topics;
        this.storage = storage;
        this.batchRows = batchRows;
        this.threads = threads;
    }

    /**
     * Runs the first pass now, so a failure no retry fixes (permissions, a broken schema) surfaces at once; a
     * storage that does not answer right now (restarting) is left to the next pass, as in every later pass. Then
     * one pass every {@code interval}.
     */
    void start(Duration interval) throws SQLException {
        try {
            pass();
        } catch (SQLException e) {
            if (!SqlErrors.isRetriable(e)) {
                throw e;
            }
            LOG.warn("Storage not answering at start (the next pass retries): {}", e.toString());
        }
        scheduler.scheduleWithFixedDelay(this::passLogged, interval.toMillis(), interval.toMillis(),
            TimeUnit.MILLISECONDS);
    }

    private void passLogged() {
        passQueued.set(false);
        try {
            pass();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Storage supervisor pass failed (next pass retries): {}", e.toString());
        }
    }

    private synchronized void pass() throws SQLException {
        List<SyncRulesGroup> live;
        try (Connection connection = Environment.connect(storage)) {
            GroupLifecycle.step(connection, STOP_GRACE);
            live = SyncRulesGroups.list(connection).stream().filter(group -> group.state().isLive()).toList();
        }
        processing = live.stream().filter(group -> group.state() == GroupState.PROCESSING).map(SyncRulesGroup::id)
            .collect(Collectors.toUnmodifiableSet());
        Map<Long, SyncRulesGroup> byId = live.stream().collect(Collectors.toMap(SyncRulesGroup::id, g -> g));
        boolean anyActive = live.stream().anyMatch(group -> group.state() == GroupState.ACTIVE);
        writers.entrySet().removeIf(entry -> {
            StorageWriter writer = entry.getValue();
            boolean failed = writer.failure().isPresent() || !writer.isRunning();
            SyncRulesGroup group = byId.get(entry.getKey());
            boolean resized = group != null && loops.getOrDefault(entry.getKey(), -1) != loopsFor(group, anyActive);
            if (group == null || failed || resized) {
                writer.failure().ifPresent(failure -> LOG.error("Storage writer of group {} failed; restarting it",
                    entry.getKey(), failure));
                writer.close();
                meters.remove(entry.getKey()).close();
                loops.remove(entry.getKey());
                return true;
            }
            return false;
        });
        for (SyncRulesGroup group : live) {
            if (!writers.containsKey(group.id()) && !lost.containsKey(group.id())) {
                int groupLoops = loopsFor(group, anyActive);
                StorageWriter writer;
                try {
                    writer = StorageWriter.start(WriterConfig.of(kafka, topics, storage.toPgEndpoint(),
                        group.id(), group.content(), batchRows, groupLoops));
                } catch (TableLogLostException e) {
                    LOG.error(e.getMessage());
                    lost.put(group.id(), e);
                    recovered = false;
                    continue;
                }
                long groupId = group.id();
                writer.onCheckpointPublished(() -> checkpointed(groupId));
                writers.put(group.id(), writer);
                loops.put(group.id(), groupLoops);
                meters.put(group.id(), new WriterMeters(registry, group.id(), writer));
                LOG.info("Storage writer of sync rules group {} ({}) started with {} loops", group.id(),
                    group.state(), groupLoops);
            }
        }
        recoverLost();
    }

    /**
     * Recovers the groups found lost ({@link TableLogRecovery}) until one recovery succeeded; a recovery this
     * process cannot make safely becomes its {@link #failure()}, a failing one is tried again on the next pass.
     */
    private void recoverLost() throws SQLException {
        if (recovered || lost.isEmpty()) {
            return;
        }
        try (Connection connection = Environment.connect(storage)) {
            TableLogRecovery.recover(connection, List.copyOf(lost.values()), rebuild);
            recovered = true;
        } catch (TableLogRecovery.UnsafeRecoveryException e) {
            failure = Optional.of(e);
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            LOG.warn("Recovery of the lost table log not possible now (the next pass tries again): {}", e.toString());
        }
    }

    @Override
    public String stageName() {
        return "storage writers";
    }

    /** Why this process must stop, if it must: a lost table log it cannot recover from by itself. */
    @Override
    public Optional<Throwable> failure() {
        return failure;
    }

    /** A writer of {@code groupId} published a checkpoint: a pass now if that may change the group's state. */
    private void checkpointed(long groupId) {
        if (processing.contains(groupId) && passQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(this::passLogged);
            } catch (RejectedExecutionException e) {
                passQueued.set(false);  // closing
            }
        }
    }

    /**
     * Work loops for a group's writer: a group replaying {@code rows} while another group serves clients gets
     * one loop (the lower priority of docs/design.md: it must not starve the ACTIVE group's streaming); the
     * ACTIVE group, or the first group while none is ACTIVE, gets {@code replication.workers_per_process}. A
     * writer whose share changes (its group became ACTIVE) is restarted with the new count; fencing keeps that
     * hand-over exactly-once.
     */
    private int loopsFor(SyncRulesGroup group, boolean anyActive) {
        return group.state() == GroupState.PROCESSING && anyActive ? 1 : threads;
    }

    /** The running writers, by group id. */
    synchronized Map<Long, StorageWriter> writers() {
        return Map.copyOf(writers);
    }

    @Override
    public synchronized void close() {
        scheduler.shutdownNow();
        writers.values().forEach(StorageWriter::close);
        meters.values().forEach(WriterMeters::close);
        meters.clear();
        loops.clear();
        writers.clear();
    }
}
