package io.tributary.launcher.run;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tributary.api.http.ApiServer;
import io.tributary.launcher.cli.ExitCodes;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.ServiceUnavailableException;
import io.tributary.launcher.env.SharedServer;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.RowIdKeys;
import io.tributary.launcher.lifecycle.RulesFile;
import io.tributary.launcher.metrics.MetricsServer;
import io.tributary.postgres.CurrentWalPosition;
import io.tributary.postgres.SqlErrors;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.schema.Migrations;
import io.tributary.topics.messages.Lsn;
import io.tributary.writer.lifecycle.Deployments;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code run}: prepares storage (schema, sample data on an embedded source, the configured sync rules),
 * starts the role's pipeline, the metrics endpoint and the progress display, then either waits for SIGTERM
 * or, with {@code --until-caught-up}, for the newest group to be ACTIVE with a checkpoint covering the
 * source, and prints a summary. Shutdown closes everything within seconds, handing work back.
 */
public final class Replication {

    private static final Logger LOG = LoggerFactory.getLogger(Replication.class);
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(2);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(500);
    private static final Duration LAG_INTERVAL = Duration.ofSeconds(10);
    private static final Duration LAG_RETENTION = Duration.ofHours(6);
    private static final Duration SLOT_INTERVAL = Duration.ofSeconds(15);
    /** How long SIGTERM waits for the pipeline to hand its work back before the JVM exits. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private Replication() {
    }

    /** Runs until shut down (or caught up) and returns the exit code. */
    public static int run(TributaryConfig config, Environment environment, Role role, boolean untilCaughtUp,
                          PrintWriter out) throws Exception {
        StartupWait wait = StartupWait.upTo(config.startupWait());
        try {
            wait.until("storage at " + environment.storage().url() + " (schema and sync rules)", () -> {
                prepareStorage(config, environment, out);
                return null;
            });
        } catch (SQLException e) {
            if (!StartupWait.isWorthWaitingFor(e)) {
                throw e;
            }
            throw new ServiceUnavailableException("The storage database at " + environment.storage().url()
                + " stopped answering while its schema and sync rules were prepared (" + e.getMessage() + ")"
                + wait.gaveUp(), e);
        }
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        CountDownLatch shutdown = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            shutdown.countDown();
            awaitQuietly(closed, SHUTDOWN_TIMEOUT);
        }, "tributary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (LocalState state = LocalState.claim();
             Pipeline pipeline = Pipeline.start(config, environment, role, state.path(), registry, wait);
             ProgressReporter progress = new ProgressReporter(environment.storage(), out, registry);
             LagGauges lag = new LagGauges(environment.kafkaClientProperties(), registry, Pipeline.topics(config),
                 () -> progress.latest().map(ProgressSnapshot::groups).orElse(List.of()));
             CurrentWalPosition source = Environment.walPosition(environment.source());
             SlotMonitor slot = slotMonitor(config, environment, role, registry);
             MetricsServer metrics = metrics(config, registry, pipeline, slot);
             ApiServer api = SyncApi.start(config.api(), environment, role, out);
             ApiMeters apiMeters = ApiMeters.register(registry, api)) {
            progress.start(PROGRESS_INTERVAL);
            lag.start(LAG_INTERVAL);
            ReplicationLag behind = new ReplicationLag(LAG_RETENTION);
            Gauge.builder("tributary_replication_lag_seconds", behind, b -> activeCheckpoint(progress)
                    .map(checkpoint -> b.lag(checkpoint, Instant.now()).toMillis() / 1000.0).orElse(0.0))
                .description("age of the oldest source WAL the ACTIVE group's checkpoint does not cover yet")
                .register(registry);
            Optional<Lsn> target = Optional.empty();
            while (!shutdown.await(CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
                Optional<String> problem = pipeline.problem();
                if (problem.isPresent()) {
                    out.println("Stopping: " + problem.get());
                    return ExitCodes.FAILURE;
                }
                sampleSource(source, behind);
                if (untilCaughtUp) {
                    try {
                        CatchUpState reading = progress.readCatchUpState();
                        if (target.isEmpty() && snapshotsFinished(reading)) {
                            target = Optional.of(Lsn.parse(source.current()));
                        }
                        if (target.isPresent() && caughtUp(reading, target.get())) {
                            out.println(summary(progress.read(), progress.elapsedMillis()));
                            return ExitCodes.OK;
                        }
                    } catch (SQLException e) {
                        if (!SqlErrors.isRetriable(e)) {
                            throw e;
                        }
                        LOG.warn("Progress not readable now (next check retries): {}", e.toString());
                    }
                }
            }
            out.println("Shutting down");
            return ExitCodes.OK;
        } finally {
            closed.countDown();
            removeHook(hook);
        }
    }

    private static void awaitQuietly(CountDownLatch latch, Duration timeout) {
        try {
            latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void prepareStorage(TributaryConfig config, Environment environment, PrintWriter out)
        throws SQLException {
        try (Connection storage = Environment.connect(environment.storage())) {
            Migrations.migrate(storage);
            try (Connection source = Environment.connect(environment.source())) {
                if (environment.embeddedSource()) {
                    if (!SampleDataset.isLoaded(source)) {
                        out.println("Embedded source: loading the sample dataset (" + SampleDataset.DEFAULT.rows()
                            + " rows)");
                    }
                    SampleDataset.DEFAULT.load(source);
                } else if (SharedServer.shared(source, storage)) {
                    LOG.warn(SharedServer.warning(environment.source().url(), environment.storage().url()));
                }
            }
            Optional<String> rules = config.syncRules().map(RulesFile::read)
                .or(() -> environment.embeddedSource() ? Optional.of(SampleDataset.syncRules()) : Optional.empty());
            if (rules.isPresent()) {
                String file = config.syncRules().map(Path::toString).orElse("the sample sync rules");
                Optional<SyncRulesGroup> deployed;
                try (Connection source = Environment.connect(environment.source())) {
                    deployed = Deployments.deployIfChanged(storage, rules.get(),
                        parsed -> RowIdKeys.check(source, parsed, file));
                }
                deployed.ifPresent(group -> out.println("Deployed sync rules as group " + group.id()));
            }
        }
    }

    /** The slot's watch in a role that holds the slot (the ingest's), else null (try-with-resources skips it). */
    private static SlotMonitor slotMonitor(TributaryConfig config, Environment environment, Role role,
                                           PrometheusMeterRegistry registry) {
        if (!role.parts().contains(Role.Part.INGEST)) {
            return null;
        }
        SlotMonitor monitor = new SlotMonitor(environment.source(), config.replication().slotName(),
            config.replication().slotWalWarningBytes(), registry);
        monitor.start(SLOT_INTERVAL);
        return monitor;
    }

    /** The metrics endpoint, or null (a resource try-with-resources skips) when {@code metrics.port} is 0. */
    private static MetricsServer metrics(TributaryConfig config, PrometheusMeterRegistry registry,
                                         Pipeline pipeline, SlotMonitor slot) {
        if (config.metricsPort() == 0) {
            return null;
        }
        MetricsServer server = MetricsServer.start(config.metricsPort(), registry,
            () -> pipeline.problem().isEmpty(), healthWarnings(slot));
        LOG.info("Metrics and health on port {}", server.port());
        return server;
    }

    /** What {@code /health/ready} warns of: the slot above its threshold, when this process watches one. */
    static Supplier<List<String>> healthWarnings(SlotMonitor slot) {
        return () -> slot == null ? List.of() : slot.warning().stream().toList();
    }

    private static boolean snapshotsFinished(CatchUpState snapshot) {
        return snapshot.newestGroup().filter(group -> group.state() == GroupState.ACTIVE).isPresent()
            && snapshot.openWindows() == 0;
    }

    private static boolean caughtUp(CatchUpState snapshot, Lsn target) {
        return snapshot.settled() && snapshot.newestGroup()
            .filter(group -> group.state() == GroupState.ACTIVE)
            .flatMap(SyncRulesGroup::checkpoint)
            .filter(checkpoint -> !Lsn.parse(checkpoint.lsn()).isBefore(target))
            .isPresent();
    }

    private static Optional<Lsn> activeCheckpoint(ProgressReporter progress) {
        return progress.latest().flatMap(snapshot -> snapshot.groups().stream()
            .filter(group -> group.state() == GroupState.ACTIVE).findFirst())
            .flatMap(SyncRulesGroup::checkpoint).map(checkpoint -> Lsn.parse(checkpoint.lsn()));
    }

    private static void sampleSource(CurrentWalPosition source, ReplicationLag behind) {
        try {
            behind.sample(Instant.now(), Lsn.parse(source.current()));
        } catch (SQLException e) {
            LOG.debug("Source WAL position not readable now: {}", e.toString());
        }
    }

    private static String summary(ProgressSnapshot snapshot, long elapsedMillis) {
        SyncRulesGroup group = snapshot.newestGroup().orElseThrow();
        return String.format("Caught up in %.1f s: %d rows snapshotted from %d tables (%.0f rows/s); sync rules "
                + "group %d ACTIVE at checkpoint op_id %d, LSN %s", elapsedMillis / 1000.0, snapshot.rowsDone(),
            snapshot.tables(), snapshot.rowsDone() * 1000.0 / Math.max(1, elapsedMillis), group.id(),
            group.checkpoint().orElseThrow().opId(), group.checkpoint().orElseThrow().lsn());
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            LOG.debug("Shutting down already: {}", e.getMessage());
        }
    }
}
