package io.tributary.chaos.infra;

import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.CrashWatcher;
import io.tributary.chaos.run.RunFaults;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Service faults of a run: runs a scenario's {@link InfraScenario#inject} on its own thread, then keeps watching
 * for crashed processes until {@link #stop}, which tells the scenario to end and waits up to three minutes for it
 * (its services come back first). Once the scenario waits for streaming or returns, its snapshot faults are over
 * and it releases the run's {@link SnapshotHold} (once).
 */
final class FaultThread implements RunFaults {

    private static final Duration FAULTS_END = Duration.ofMinutes(3);

    private final InfraScenario scenario;
    private final PgEndpoint storage;
    private final Path directory;
    private final long seed;
    private final Consumer<String> log;
    private final Thread thread;
    private final SnapshotHold hold;
    private final Runnable release;
    private volatile PipelineSettings direct;
    private volatile FaultContext context;
    private volatile Exception failure;

    FaultThread(InfraScenario scenario, SnapshotHold hold, PgEndpoint storage, Path directory, long seed,
                Consumer<String> log) {
        this.scenario = scenario;
        this.storage = storage;
        this.directory = directory;
        this.seed = seed;
        this.log = log;
        this.thread = new Thread(this::run, "chaos-infra-faults");
        this.thread.setDaemon(true);
        this.hold = hold;
        AtomicBoolean released = new AtomicBoolean();
        this.release = () -> {
            if (released.compareAndSet(false, true)) {
                hold.release();
            }
        };
    }

    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        this.direct = direct;
        return scenario.processSettings(direct);
    }

    @Override
    public void start(ProcessPipeline pipeline, CrashWatcher crashes) {
        context = new FaultContext(pipeline, direct, storage, directory, seed, log, crashes, hold, release);
        thread.start();
    }

    private void run() {
        try {
            scenario.inject(context);
        } catch (Exception e) {
            failure = e;
            context.log("scenario " + scenario.name() + " failed: " + e);
        }
        release.run();
        while (!context.stopping()) {
            context.pause(Duration.ofSeconds(1));
        }
    }

    /**
     * Tells the scenario to end and waits for it.
     *
     * @throws IllegalStateException if the scenario failed or did not end in time
     */
    @Override
    public void stop() {
        FaultContext started = context;
        if (started == null) {
            return;
        }
        started.stop();
        try {
            thread.join(FAULTS_END.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("Scenario " + scenario.name() + " did not end within " + FAULTS_END);
        }
        if (failure != null) {
            throw new IllegalStateException("Scenario " + scenario.name() + " failed: " + failure, failure);
        }
    }

    /** The faults the scenario injected (none before {@link #start}). */
    List<InfraFault> faults() {
        FaultContext started = context;
        return started == null ? List.of() : started.faults();
    }
}
