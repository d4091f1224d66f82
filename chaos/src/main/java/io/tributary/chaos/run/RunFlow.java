package io.tributary.chaos.run;

import io.tributary.chaos.check.BucketCheck;
import io.tributary.chaos.check.CheckpointAuditor;
import io.tributary.chaos.check.CommitLog;
import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.check.Quiescence;
import io.tributary.chaos.check.RowsTopicCheck;
import io.tributary.chaos.check.SourceTables;
import io.tributary.chaos.check.SqlBuckets;
import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.workload.Workload;
import io.tributary.chaos.workload.WorkloadSchema;
import io.tributary.chaos.workload.WorkloadStats;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.Lsn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The flow every chaos run shares, whatever its faults ({@link RunFaults}):
 * <ol>
 *   <li>create the source schema with its seeded initial rows; write the sync rules file;</li>
 *   <li>start the workers (snapshot, stream, storage) and wait until they are ready; start the checkpoint
 *       auditor, the workload and the ingest, so writes run during the initial snapshot; start the faults;</li>
 *   <li>once the newest group is ACTIVE, keep writing for {@link RunSettings#streaming()}; stop the faults,
 *       then the writes;</li>
 *   <li>wait until the newest group's checkpoint covers the source's WAL position; compare its buckets with its
 *       own rules evaluated over the source, {@code rows} with the source, and check every audited checkpoint;
 *       stop the processes and drop the replication slot.</li>
 * </ol>
 * The pipeline's processes reach the services as the faults say ({@link RunFaults#processSettings}); the workload,
 * the auditor and the checks always reach them directly. One flow runs once, on the caller's thread.
 */
public final class RunFlow {

    private static final Duration READY = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(500);

    private final RunEnvironment environment;
    private final RunSettings settings;
    private final Consumer<String> log;

    /**
     * @param log where the run's lines go, already tagged with the run (seed, scenario)
     */
    public RunFlow(RunEnvironment environment, RunSettings settings, Consumer<String> log) {
        this.environment = environment;
        this.settings = settings;
        this.log = log;
    }

    /**
     * How many times longer than the profile says the progress deadlines are (and the processes' start):
     * {@code -Dchaos.time_scale=N}
     * ({@code ./chaos.sh --time-scale N}) for a machine so loaded that processes take minutes to start; 1 by default.
     */
    private static long timeScale() {
        long scale = Long.getLong("chaos.time_scale", 1);
        if (scale < 1) {
            throw new IllegalArgumentException("chaos.time_scale must be at least 1, got " + scale);
        }
        return scale;
    }

    private Duration activeTimeout() {
        return settings.activeTimeout().multipliedBy(timeScale());
    }

    private Duration quiesceTimeout() {
        return settings.quiesceTimeout().multipliedBy(timeScale());
    }

    /** Where the processes' logs go. */
    public Path logs() {
        return environment.directory().resolve("logs").toAbsolutePath();
    }

    /**
     * Runs the flow with {@code faults}.
     *
     * @throws Exception if the run could not be carried out (mismatches are in the outcome)
     */
    public RunOutcome execute(RunFaults faults) throws Exception {
        try {
            return run(faults);
        } finally {
            dropSlot();
        }
    }

    private RunOutcome run(RunFaults faults) throws Exception {
        long start = System.nanoTime();
        Files.createDirectories(environment.directory());
        Path rules = environment.directory().resolve("sync-rules.yaml");
        Files.writeString(rules, WorkloadSchema.SYNC_RULES);
        WorkloadSchema schema = settings.schema();
        String commitSlot = commitSlot();
        try (Connection c = environment.source().connect()) {
            CommitLog.create(c, commitSlot);
            schema.create(c, settings.seed());
        }
        PipelineSettings direct = new PipelineSettings(environment.jar(), environment.kafka(),
            environment.topicPrefix(), settings.partitions(), environment.source(), environment.storage(),
            environment.slotName(), rules, Map.of("TRIBUTARY_REPLICATION_SNAPSHOT_CHUNK_ROWS",
            Integer.toString(settings.chunkRows())), logs());
        List<Mismatch> mismatches = new ArrayList<>();
        CheckpointAuditor auditor = new CheckpointAuditor(environment.storage(), environment.source(), commitSlot,
            WorkloadSchema.ACCOUNTS_BUCKET, WorkloadSchema.ACCOUNTS_TABLE, schema.accounts(), schema.totalBalance());
        WorkloadStats stats;
        PhaseWrites writes;
        CrashWatcher crashes;
        try (ProcessPipeline pipeline = new ProcessPipeline(faults.processSettings(direct),
                line -> log.accept("process " + line));
             Workload workload = new Workload(environment.source(), schema, settings.workload())) {
            crashes = new CrashWatcher(pipeline, log);
            for (ProcessRole role : List.of(ProcessRole.SNAPSHOT_WORKER, ProcessRole.STREAM_WORKER,
                ProcessRole.STORAGE_WRITER)) {
                startProcesses(pipeline, role);
            }
            pipeline.awaitReady(READY.multipliedBy(timeScale()));
            auditor.start();
            workload.start();
            startProcesses(pipeline, ProcessRole.INGEST);
            long faultsStarted = workload.stats().committed();
            faults.start(pipeline, crashes);
            Optional<SyncRulesGroup> active = awaitActive();
            long activeAt = workload.stats().committed();
            if (active.isEmpty()) {
                mismatches.add(Mismatch.of("progress", "newest group", "ACTIVE within " + activeTimeout(),
                    describeNewestGroup()));
            } else {
                log.accept("group " + active.get().id() + " ACTIVE; streaming for " + settings.streaming());
                pause(settings.streaming());
            }
            faults.stop();
            writes = PhaseWrites.between(faultsStarted, activeAt, workload.stats().committed());
            stats = workload.stop();
            log.accept("workload stopped: " + stats + "; " + writes);
            if (active.isPresent()) {
                mismatches.addAll(check());
            }
            mismatches.addAll(auditor.finish());
            log.accept("checkpoint audit: " + auditor.audited() + " checkpoints audited in full, "
                + auditor.rowsAudited() + " bucket rows compared with the source as of their checkpoint's LSN");
            crashes.restartCrashed();
        } finally {
            auditor.close();
        }
        return new RunOutcome(Duration.ofNanos(System.nanoTime() - start), crashes.crashes(), stats, writes,
            auditor.audited(), mismatches, logs().toString());
    }

    private void startProcesses(ProcessPipeline pipeline, ProcessRole role) {
        for (int i = 0; i < settings.scale().get(role); i++) {
            pipeline.start(role);
        }
    }

    /** The newest group once it is ACTIVE; storage that does not answer (a fault) is not an answer yet. */
    private Optional<SyncRulesGroup> awaitActive() {
        long deadline = System.nanoTime() + activeTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Optional<SyncRulesGroup> newest = Quiescence.newestGroup(environment.storage());
                if (newest.isPresent() && newest.get().state() == GroupState.ACTIVE) {
                    return newest;
                }
            } catch (SQLException e) {
                log.accept("storage does not answer yet: " + e.getMessage());
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        return Optional.empty();
    }

    private String describeNewestGroup() {
        try {
            return Quiescence.describeNewestGroup(environment.storage());
        } catch (SQLException e) {
            return "storage does not answer: " + e.getMessage();
        }
    }

    private static void pause(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(Math.min(until - System.nanoTime(), Duration.ofSeconds(1).toNanos()));
        }
    }

    private List<Mismatch> check() throws Exception {
        Lsn position = Quiescence.sourcePosition(environment.source());
        Optional<SyncRulesGroup> caughtUp = Quiescence.awaitCheckpoint(environment.storage(), position,
            quiesceTimeout());
        if (caughtUp.isEmpty()) {
            return List.of(Mismatch.of("progress", "checkpoint of the newest group after writes stopped",
                "ACTIVE with checkpoint LSN >= " + position + " within " + quiesceTimeout(),
                describeNewestGroup()));
        }
        SyncRulesGroup group = caughtUp.get();
        log.accept("caught up: group " + group.id() + " " + group.checkpoint().orElseThrow() + " covers source "
            + position);
        List<Mismatch> mismatches = new ArrayList<>();
        Map<String, Map<String, String>> source;
        Map<String, Set<String>> sqlBuckets;
        List<String> tables;
        try (Connection c = environment.source().connect()) {
            tables = WorkloadSchema.tables(c);
            source = SourceTables.read(c, tables);
            sqlBuckets = SqlBuckets.expected(c);
        }
        try (Connection c = environment.storage().connect()) {
            Map<String, BucketCheck.Bucket> served = BucketCheck.served(c, group.id());
            mismatches.addAll(BucketCheck.compare(BucketCheck.expected(group.content(), source), served));
            mismatches.addAll(SqlBuckets.compare(sqlBuckets, SqlBuckets.served(served)));
        }
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", environment.kafka());
        mismatches.addAll(RowsTopicCheck.compare(source, RowsTopicCheck.read(kafka,
            new TopicNames(environment.topicPrefix()).rows(), tables)));
        long rows = source.values().stream().mapToLong(Map::size).sum();
        log.accept("checked " + rows + " source rows against group " + group.id() + "'s buckets and the rows topic: "
            + mismatches.size() + " mismatches");
        return mismatches;
    }

    /** The replication slot of the auditor's {@link CommitLog}. */
    private String commitSlot() {
        return environment.slotName() + "_audit";
    }

    /** Drops the run's replication slots, so finished runs do not hold WAL on a shared server. */
    private void dropSlot() {
        try (Connection c = environment.source().connect()) {
            CommitLog.drop(c, commitSlot());
        } catch (SQLException e) {
            log.accept("dropping slot " + commitSlot() + ": " + e.getMessage());
        }
        for (int attempt = 0; attempt < 20; attempt++) {
            try (Connection c = environment.source().connect();
                 PreparedStatement drop = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name)"
                     + " FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
                drop.setString(1, environment.slotName());
                drop.execute();
                if (!slotExists(c)) {
                    return;
                }
            } catch (SQLException e) {
                log.accept("dropping slot " + environment.slotName() + ": " + e.getMessage());
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        log.accept("replication slot " + environment.slotName() + " is still there: drop it by hand");
    }

    private boolean slotExists(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
            select.setString(1, environment.slotName());
            return select.executeQuery().next();
        }
    }
}
