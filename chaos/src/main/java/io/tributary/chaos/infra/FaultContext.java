package io.tributary.chaos.infra;

import io.tributary.chaos.check.Quiescence;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.CrashWatcher;
import io.tributary.chaos.run.Phase;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * What a scenario's {@link InfraScenario#inject} sees: the pipeline, the storage (directly), the run's seeded
 * random, waits for phases, and the record of faults it injected (each with the phase it hit). Used by the fault
 * thread only.
 */
public final class FaultContext {

    private static final Duration TICK = Duration.ofMillis(250);

    private final ProcessPipeline pipeline;
    private final PipelineSettings direct;
    private final PgEndpoint storage;
    private final Path directory;
    private final Random random;
    private final Consumer<String> log;
    private final CrashWatcher crashes;
    private final SnapshotHold hold;
    private final Runnable snapshotFaultsOver;
    private final long startNanos = System.nanoTime();
    private final List<InfraFault> injected = new ArrayList<>();
    private volatile boolean stopping;
    private volatile Phase lastPhase = Phase.SNAPSHOT;

    FaultContext(ProcessPipeline pipeline, PipelineSettings direct, PgEndpoint storage, Path directory, long seed,
                 Consumer<String> log, CrashWatcher crashes, SnapshotHold hold, Runnable snapshotFaultsOver) {
        this.pipeline = pipeline;
        this.direct = direct;
        this.storage = storage;
        this.directory = directory;
        this.random = new Random(seed * 17 + 3);
        this.log = log;
        this.crashes = crashes;
        this.hold = hold;
        this.snapshotFaultsOver = snapshotFaultsOver;
    }

    public ProcessPipeline pipeline() {
        return pipeline;
    }

    /**
     * The settings that reach the services directly, as the workload and the checks do (the pipeline's processes
     * get {@link InfraScenario#processSettings} of these, e.g. through a scenario's proxies).
     */
    public PipelineSettings directSettings() {
        return direct;
    }

    /**
     * Announces that processes of {@code role} will exit on their own as the fault's documented outcome (until
     * {@link #expectNoExits}): such an exit is not a crash, and the process stays stopped until the scenario
     * restarts it ({@code pipeline().restart}).
     */
    public void expectExits(ProcessRole role) {
        crashes.expectExits(role);
    }

    /** Exits of {@code role} are crashes again. */
    public void expectNoExits(ProcessRole role) {
        crashes.expectNoExits(role);
    }

    /** The exits announced with {@link #expectExits} seen so far. */
    public List<ProcessExit> expectedExits() {
        crashes.restartCrashed();
        return crashes.expectedExits();
    }

    /** The run's working directory (rules files, logs). */
    public Path directory() {
        return directory;
    }

    /** Drawn from the run's seed: the same seed makes the same choices. */
    public Random random() {
        return random;
    }

    /** Whether the run wants the faults to end (the scenario should bring its services back and return). */
    public boolean stopping() {
        return stopping;
    }

    void stop() {
        stopping = true;
    }

    /**
     * The phase the newest group is in now (SNAPSHOT until it is ACTIVE); while storage does not answer (a storage
     * fault of the same run), the phase it answered last.
     */
    public Phase phase() {
        newestGroup();
        return lastPhase;
    }

    /** The newest group, if storage answers and one is deployed. */
    public Optional<SyncRulesGroup> newestGroup() {
        try {
            Optional<SyncRulesGroup> newest = Quiescence.newestGroup(storage);
            lastPhase = newest.filter(g -> g.state() == GroupState.ACTIVE).isPresent() ? Phase.STREAMING
                : Phase.SNAPSHOT;
            return newest;
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /** Group {@code id} (live or not), if storage holds it; empty while storage does not answer. */
    public Optional<SyncRulesGroup> group(long id) {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.find(c, id);
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /**
     * Waits until a group is deployed and PROCESSING (its snapshot runs), engages the run's {@link SnapshotHold}, then
     * waits {@code delay} more.
     *
     * @return false if the run stops first
     */
    public boolean awaitSnapshotRunning(Duration delay) {
        if (!awaitGroup(GroupState.PROCESSING)) {
            return false;
        }
        hold.engage();
        return pause(delay);
    }

    /**
     * Waits until the newest group is ACTIVE (streaming), then {@code delay} more. The scenario's snapshot faults
     * are over: the run's {@link SnapshotHold} no longer waits for them.
     *
     * @return false if the run stops first
     */
    public boolean awaitStreaming(Duration delay) {
        snapshotFaultsOver.run();
        return awaitGroup(GroupState.ACTIVE) && pause(delay);
    }

    private boolean awaitGroup(GroupState state) {
        while (!stopping) {
            if (newestGroup().filter(g -> g.state() == state).isPresent()) {
                return true;
            }
            tick();
        }
        return false;
    }

    /**
     * Waits {@code duration} (watching for crashes meanwhile).
     *
     * @return false if the run stopped meanwhile
     */
    public boolean pause(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (!stopping && System.nanoTime() < until) {
            tick();
        }
        return !stopping;
    }

    /** Waits {@code duration} even while stopping: for a service's down time, which must end with its return. */
    public void hold(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            tick();
        }
    }

    private void tick() {
        crashes.restartCrashed();
        LockSupport.parkNanos(TICK.toNanos());
    }

    /** A random duration in {@code [min, max)}. */
    public Duration between(Duration min, Duration max) {
        return min.plusMillis((long) (random.nextDouble() * (max.toMillis() - min.toMillis())));
    }

    /**
     * Records a fault injected just now.
     *
     * @param intended the phase it was meant for
     * @param hit      the phase it hit, as {@link #phase()} read just before it
     */
    public void injected(String what, Phase intended, Phase hit) {
        InfraFault fault = new InfraFault(Duration.ofNanos(System.nanoTime() - startNanos), intended, hit, what);
        synchronized (injected) {
            injected.add(fault);
        }
        log.accept("fault " + fault);
    }

    /** Every fault injected so far. */
    public List<InfraFault> faults() {
        synchronized (injected) {
            return List.copyOf(injected);
        }
    }

    /** Logs a line of the run. */
    public void log(String line) {
        log.accept(line);
    }
}
