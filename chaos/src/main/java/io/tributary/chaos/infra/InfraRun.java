package io.tributary.chaos.infra;

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
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.chaos.run.RunSettings;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One infrastructure scenario run, start to verdict, as a chaos run ({@link io.tributary.chaos.run.ChaosRun}) but
 * with the scenario's faults instead of process kills:
 * <ol>
 *   <li>source schema with seeded rows, sync rules file; workers, then the workload and the ingest (writes run
 *       during the initial snapshot); the checkpoint auditor; the scenario on the fault thread, which also
 *       restarts processes that exit on their own and records them as crashes;</li>
 *   <li>once the newest group is ACTIVE, writes go on for {@link RunSettings#streaming()}; then the scenario is
 *       told to stop (it brings its services back) and the writes stop;</li>
 *   <li>the newest group's checkpoint must reach the source's WAL position; its buckets must equal its rules
 *       evaluated over the source, {@code rows} must equal the source, and every audited checkpoint must hold.</li>
 * </ol>
 * The pipeline's processes reach the services as the scenario says; everything else reaches them directly.
 */
public final class InfraRun {

    private static final Duration READY = Duration.ofMinutes(3);
    private static final Duration FAULTS_END = Duration.ofMinutes(3);

    private final RunEnvironment environment;
    private final RunSettings settings;
    private final InfraScenario scenario;
    private final Consumer<String> log;

    public InfraRun(RunEnvironment environment, RunSettings settings, InfraScenario scenario, Consumer<String> log) {
        this.environment = environment;
        this.settings = settings;
        this.scenario = scenario;
        this.log = line -> log.accept("[" + scenario.name() + " seed " + settings.seed() + "] " + line);
    }

    /**
     * Runs it.
     *
     * @throws InfraRunException if the run could not be carried out (mismatches are in the report)
     */
    public InfraReport execute() {
        long start = System.nanoTime();
        log.accept("infra scenario " + scenario.name() + ": seed " + settings.seed() + ", logs in " + logs());
        try {
            return run(start);
        } catch (Exception e) {
            throw new InfraRunException("Infra scenario " + scenario.name() + " with seed " + settings.seed()
                + " failed (logs in " + logs() + "): " + e.getMessage(), e);
        } finally {
            dropSlot();
        }
    }

    private Path logs() {
        return environment.directory().resolve("logs").toAbsolutePath();
    }

    private InfraReport run(long start) throws Exception {
        Files.createDirectories(environment.directory());
        Path rules = environment.directory().resolve("sync-rules.yaml");
        Files.writeString(rules, WorkloadSchema.SYNC_RULES);
        WorkloadSchema schema = settings.schema();
        try (Connection c = environment.source().connect()) {
            schema.create(c, settings.seed());
        }
        PipelineSettings direct = new PipelineSettings(environment.jar(), environment.kafka(),
            environment.topicPrefix(), settings.partitions(), environment.source(), environment.storage(),
            environment.slotName(), rules, Map.of("TRIBUTARY_REPLICATION_SNAPSHOT_CHUNK_ROWS",
            Integer.toString(settings.chunkRows())), logs());
        List<Mismatch> mismatches = new ArrayList<>();
        CheckpointAuditor auditor = new CheckpointAuditor(environment.storage(), WorkloadSchema.ACCOUNTS_BUCKET,
            WorkloadSchema.ACCOUNTS_TABLE, schema.accounts(), schema.totalBalance());
        List<ProcessExit> crashes = new ArrayList<>();
        List<ProcessExit> crashed;
        FaultContext context;
        WorkloadStats stats;
        try (Pipeline pipeline = new Pipeline(scenario.processSettings(direct), line -> log.accept("process " + line));
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
            pipeline.start(ProcessRole.INGEST);
            Set<String> seen = new HashSet<>();
            context = new FaultContext(pipeline, environment.storage(), environment.directory(), settings.seed(),
                log, () -> restartCrashed(pipeline, seen, crashes));
            FaultThread faults = new FaultThread(scenario, context);
            faults.start();
            Optional<SyncRulesGroup> active = awaitActive(context, settings.activeTimeout());
            if (active.isEmpty()) {
                mismatches.add(Mismatch.of("progress", "newest group", "ACTIVE within " + settings.activeTimeout(),
                    context.newestGroup().map(Object::toString).orElse("no group")));
            } else {
                log.accept("group " + active.get().id() + " ACTIVE; streaming for " + settings.streaming());
                context.pause(settings.streaming());
            }
            faults.finish(FAULTS_END);
            stats = workload.stop();
            log.accept("workload stopped: " + stats);
            if (active.isPresent()) {
                mismatches.addAll(check());
            }
            mismatches.addAll(auditor.finish());
            restartCrashed(pipeline, seen, crashes);
            synchronized (seen) {
                crashed = List.copyOf(crashes);
            }
        } finally {
            auditor.close();
        }
        InfraReport report = new InfraReport(scenario.name(), settings.seed(),
            Duration.ofNanos(System.nanoTime() - start), context.faults(), crashed, stats, auditor.audited(),
            mismatches, logs().toString());
        log.accept(report.summary());
        return report;
    }

    /** Restarts processes that exited on their own (as compose's restart policy would) and records them. */
    private void restartCrashed(Pipeline pipeline, Set<String> seen, List<ProcessExit> crashes) {
        synchronized (seen) {
            for (ProcessExit crash : pipeline.crashes()) {
                if (seen.add(crash.name())) {
                    crashes.add(crash);
                    log.accept("CRASH (exited on its own): " + crash);
                    pipeline.all().stream().filter(p -> p.name().equals(crash.name())).findFirst()
                        .ifPresent(pipeline::restart);
                }
            }
        }
    }

    private Optional<SyncRulesGroup> awaitActive(FaultContext context, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<SyncRulesGroup> newest = context.newestGroup();
            if (newest.isPresent() && newest.get().state() == GroupState.ACTIVE) {
                return newest;
            }
            context.hold(Duration.ofMillis(500));
        }
        return Optional.empty();
    }

    private List<Mismatch> check() throws Exception {
        Lsn position = Quiescence.sourcePosition(environment.source());
        Optional<SyncRulesGroup> caughtUp = Quiescence.awaitCheckpoint(environment.storage(), position,
            settings.quiesceTimeout());
        if (caughtUp.isEmpty()) {
            return List.of(Mismatch.of("progress", "checkpoint of the newest group after writes stopped",
                "ACTIVE with checkpoint LSN >= " + position + " within " + settings.quiesceTimeout(),
                Quiescence.newestGroup(environment.storage()).map(Object::toString).orElse("no group")));
        }
        SyncRulesGroup group = caughtUp.get();
        log.accept("caught up: group " + group.id() + " " + group.checkpoint().orElseThrow() + " covers source "
            + position);
        List<Mismatch> mismatches = new ArrayList<>();
        Map<String, Map<String, String>> source;
        try (Connection c = environment.source().connect()) {
            source = SourceTables.read(c, WorkloadSchema.TABLES);
        }
        try (Connection c = environment.storage().connect()) {
            mismatches.addAll(BucketCheck.compare(BucketCheck.expected(group.content(), source),
                BucketCheck.served(c, group.id())));
        }
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", environment.kafka());
        mismatches.addAll(RowsTopicCheck.compare(source, RowsTopicCheck.read(kafka,
            new TopicNames(environment.topicPrefix()).rows(), WorkloadSchema.TABLES)));
        long rows = source.values().stream().mapToLong(Map::size).sum();
        log.accept("checked " + rows + " source rows against group " + group.id() + "'s buckets and the rows topic: "
            + mismatches.size() + " mismatches");
        return mismatches;
    }

    private void dropSlot() {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (Connection c = environment.source().connect();
                 PreparedStatement drop = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name)"
                     + " FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
                drop.setString(1, environment.slotName());
                drop.execute();
                try (PreparedStatement select = c.prepareStatement(
                    "SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
                    select.setString(1, environment.slotName());
                    if (!select.executeQuery().next()) {
                        return;
                    }
                }
            } catch (SQLException e) {
                log.accept("dropping slot " + environment.slotName() + ": " + e.getMessage());
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        log.accept("replication slot " + environment.slotName() + " is still there: drop it by hand");
    }
}
