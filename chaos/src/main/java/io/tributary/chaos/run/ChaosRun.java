package io.tributary.chaos.run;

import io.tributary.chaos.check.BucketCheck;
import io.tributary.chaos.check.CheckpointAuditor;
import io.tributary.chaos.check.Mismatch;
import io.tributary.chaos.check.Quiescence;
import io.tributary.chaos.check.RowsTopicCheck;
import io.tributary.chaos.check.SourceTables;
import io.tributary.chaos.harness.Pipeline;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessExit;
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
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One chaos run, start to verdict:
 * <ol>
 *   <li>create the source schema with its seeded initial rows; write the sync rules file;</li>
 *   <li>start the workers (snapshot, stream, storage), then the workload and the ingest, so writes run during
 *       the initial snapshot; start the checkpoint auditor and the fault injector;</li>
 *   <li>when the group is ACTIVE, keep writing (and injecting) for {@link RunSettings#streaming()};</li>
 *   <li>stop faults and writes, wait until the group's checkpoint covers the source's WAL position;</li>
 *   <li>check buckets against the reference evaluation, {@code rows} against the source, and every audited
 *       checkpoint; stop the processes and drop the replication slot.</li>
 * </ol>
 * The seed is printed first; every failure message and the report carry it.
 */
public final class ChaosRun {

    private static final Duration READY = Duration.ofMinutes(3);

    private final RunEnvironment environment;
    private final RunSettings settings;
    private final Consumer<String> log;

    public ChaosRun(RunEnvironment environment, RunSettings settings, Consumer<String> log) {
        this.environment = environment;
        this.settings = settings;
        this.log = line -> log.accept("[seed " + settings.seed() + "] " + line);
    }

    /**
     * Runs it.
     *
     * @throws ChaosRunException if the run could not be carried out (not a mismatch: those are in the report)
     */
    public RunReport execute() {
        long start = System.nanoTime();
        log.accept("chaos run: seed " + settings.seed() + ", " + settings.plan().faults().size() + " planned faults "
            + settings.plan().faults() + ", logs in " + logs());
        try {
            return run(start);
        } catch (Exception e) {
            throw new ChaosRunException("Chaos run with seed " + settings.seed() + " failed (logs in " + logs()
                + "): " + e.getMessage(), e);
        } finally {
            dropSlot();
        }
    }

    private Path logs() {
        return environment.directory().resolve("logs").toAbsolutePath();
    }

    private RunReport run(long start) throws Exception {
        Files.createDirectories(environment.directory());
        Path rules = environment.directory().resolve("sync-rules.yaml");
        Files.writeString(rules, WorkloadSchema.SYNC_RULES);
        WorkloadSchema schema = settings.schema();
        try (Connection c = environment.source().connect()) {
            schema.create(c, settings.seed());
        }
        PipelineSettings pipelineSettings = new PipelineSettings(environment.jar(), environment.kafka(),
            environment.topicPrefix(), settings.partitions(), environment.source(), environment.storage(),
            environment.slotName(), rules, Map.of("TRIBUTARY_REPLICATION_SNAPSHOT_CHUNK_ROWS",
            Integer.toString(settings.chunkRows())), logs());
        List<Mismatch> mismatches = new ArrayList<>();
        CheckpointAuditor auditor = new CheckpointAuditor(environment.storage(), WorkloadSchema.ACCOUNTS_BUCKET,
            WorkloadSchema.ACCOUNTS_TABLE, schema.accounts(), schema.totalBalance());
        FaultInjector injector;
        WorkloadStats stats;
        List<ProcessExit> crashes = new ArrayList<>();
        try (Pipeline pipeline = new Pipeline(pipelineSettings, line -> log.accept("process " + line));
             Workload workload = new Workload(environment.source(), schema, settings.workload())) {
            for (ProcessRole role : List.of(ProcessRole.SNAPSHOT_WORKER, ProcessRole.STREAM_WORKER,
                ProcessRole.STORAGE_WRITER)) {
                for (int i = 0; i < settings.scale().get(role); i++) {
                    pipeline.start(role);
                }
            }
            pipeline.awaitReady(READY);
            auditor.start();
            workload.start();
            for (int i = 0; i < settings.scale().get(ProcessRole.INGEST); i++) {
                pipeline.start(ProcessRole.INGEST);
            }
            injector = new FaultInjector(pipeline, settings.plan(), environment.storage(), settings.seed(), log);
            injector.start();
            Optional<SyncRulesGroup> active = awaitActive(settings.activeTimeout());
            if (active.isEmpty()) {
                mismatches.add(Mismatch.of("progress", "newest group", "ACTIVE within " + settings.activeTimeout(),
                    Quiescence.describeNewestGroup(environment.storage())));
            } else {
                log.accept("group " + active.get().id() + " ACTIVE; streaming for " + settings.streaming());
                pause(settings.streaming());
            }
            injector.stop();
            stats = workload.stop();
            log.accept("workload stopped: " + stats);
            crashes.addAll(injector.crashes());
            if (active.isPresent()) {
                mismatches.addAll(check());
            }
            mismatches.addAll(auditor.finish());
            for (ProcessExit crash : pipeline.crashes()) {
                if (crashes.stream().noneMatch(c -> c.name().equals(crash.name()))) {
                    crashes.add(crash);
                }
            }
        } finally {
            auditor.close();
        }
        RunReport report = new RunReport(settings.seed(), Duration.ofNanos(System.nanoTime() - start),
            injector.injected(), injector.skipped(), crashes, stats, auditor.audited(), mismatches,
            logs().toString());
        log.accept(report.summary());
        return report;
    }

    private List<Mismatch> check() throws Exception {
        Lsn position = Quiescence.sourcePosition(environment.source());
        Optional<SyncRulesGroup> caughtUp = Quiescence.awaitCheckpoint(environment.storage(), position,
            settings.quiesceTimeout());
        if (caughtUp.isEmpty()) {
            return List.of(Mismatch.of("progress", "checkpoint of the newest group after writes stopped",
                "ACTIVE with checkpoint LSN >= " + position + " within " + settings.quiesceTimeout(),
                Quiescence.describeNewestGroup(environment.storage())));
        }
        log.accept("caught up: " + caughtUp.get().checkpoint().orElseThrow() + " covers source position "
            + position);
        List<Mismatch> mismatches = new ArrayList<>();
        Map<String, Map<String, String>> source;
        try (Connection c = environment.source().connect()) {
            source = SourceTables.read(c, WorkloadSchema.TABLES);
        }
        try (Connection c = environment.storage().connect()) {
            mismatches.addAll(BucketCheck.compare(BucketCheck.expected(WorkloadSchema.SYNC_RULES, source),
                BucketCheck.served(c, caughtUp.get().id())));
        }
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", environment.kafka());
        mismatches.addAll(RowsTopicCheck.compare(source, RowsTopicCheck.read(kafka,
            new TopicNames(environment.topicPrefix()).rows(), WorkloadSchema.TABLES)));
        long rows = source.values().stream().mapToLong(Map::size).sum();
        log.accept("checked " + rows + " source rows against buckets and the rows topic: " + mismatches.size()
            + " mismatches");
        return mismatches;
    }

    private Optional<SyncRulesGroup> awaitActive(Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<SyncRulesGroup> newest = Quiescence.newestGroup(environment.storage());
            if (newest.isPresent() && newest.get().state() == GroupState.ACTIVE) {
                return newest;
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        return Optional.empty();
    }

    private static void pause(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(Math.min(until - System.nanoTime(), Duration.ofSeconds(1).toNanos()));
        }
    }

    /** Drops the run's replication slot, so finished runs do not hold WAL on a shared server. */
    private void dropSlot() {
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
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
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
