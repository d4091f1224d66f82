package io.tributary.chaos.run;

import io.tributary.chaos.check.Quiescence;
import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.workload.SourceFaults;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.GroupState;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Process faults of a run: executes a {@link FaultPlan} against a {@link ProcessPipeline} on its own thread, and
 * meanwhile restarts processes that exit on their own (through the run's {@link CrashWatcher}). Faults
 * of the snapshot phase are timed from {@link #start()}, those of the streaming phase from the moment the newest
 * group is first seen ACTIVE. A kill always completes with its restart, even when {@link #stop()} interrupts
 * the plan. Victims are drawn from the run's seed.
 */
public final class FaultInjector implements RunFaults {

    private static final Duration TICK = Duration.ofMillis(250);
    private static final int MAX_PER_ROLE = 3;
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

    private final FaultPlan plan;
    private final PgEndpoint storage;
    private final SourceFaults source;
    private final ChunkReadCut chunkReads;
    private final Random random;
    private final Consumer<String> log;
    private final List<InjectedFault> injected = new ArrayList<>();
    private final Thread thread;
    private ProcessPipeline pipeline;
    private CrashWatcher crashes;
    private volatile boolean stopping;
    private volatile RuntimeException failure;
    private long startNanos;
    private long activeNanos = -1;

    /**
     * @param plan    the faults to inject
     * @param storage the run's storage (directly), to see the newest group's phase
     * @param source  the run's source (directly), for the faults the source causes
     * @param seed    the run's seed, which draws the victims
     */
    public FaultInjector(FaultPlan plan, PgEndpoint storage, PgEndpoint source, long seed, Consumer<String> log) {
        this.plan = plan;
        this.storage = storage;
        this.source = new SourceFaults(source, seed);
        this.chunkReads = new ChunkReadCut(source);
        this.random = new Random(seed * 31 + 7);
        this.log = log;
        this.thread = new Thread(this::run, "chaos-fault-injector");
        this.thread.setDaemon(true);
    }

    @Override
    public void start(ProcessPipeline pipeline, CrashWatcher crashes) {
        this.pipeline = pipeline;
        this.crashes = crashes;
        startNanos = System.nanoTime();
        thread.start();
    }

    private void run() {
        try {
            for (Phase phase : Phase.values()) {
                for (Fault fault : plan.of(phase)) {
                    if (!awaitFireTime(fault)) {
                        return;
                    }
                    inject(fault);
                }
            }
            while (!stopping) {
                tick();
            }
        } catch (RuntimeException e) {
            failure = e;
            log.accept("fault injector failed: " + e);
        }
    }

    /** Ticks until the fault is due; false if stopped first. */
    private boolean awaitFireTime(Fault fault) {
        while (!stopping) {
            long base = fault.phase() == Phase.SNAPSHOT ? startNanos : activeNanos;
            if (base >= 0 && System.nanoTime() >= base + fault.delay().toNanos()) {
                return true;
            }
            tick();
        }
        return false;
    }

    private void tick() {
        if (activeNanos < 0 && currentPhase() == Phase.STREAMING) {
            activeNanos = System.nanoTime();
        }
        crashes.restartCrashed();
        LockSupport.parkNanos(TICK.toNanos());
    }

    private Phase currentPhase() {
        try {
            return Quiescence.newestGroup(storage).filter(g -> g.state() == GroupState.ACTIVE).isPresent()
                ? Phase.STREAMING : Phase.SNAPSHOT;
        } catch (SQLException e) {
            return activeNanos >= 0 ? Phase.STREAMING : Phase.SNAPSHOT;
        }
    }

    private void inject(Fault fault) {
        Phase hit = currentPhase();
        Duration at = Duration.ofNanos(System.nanoTime() - startNanos);
        String outcome = switch (fault.kind()) {
            case KILL -> kill(fault);
            case ADD -> add(fault.role());
            case REMOVE -> remove(fault.role());
            case KILL_MID_TRANSACTION -> killMidTransaction(fault);
            case NEW_TABLE -> newTable();
            case CHUNK_READ_FAILURE -> chunkReads.cut();
        };
        InjectedFault done = new InjectedFault(at, fault, outcome, hit);
        synchronized (this) {
            injected.add(done);
        }
        log.accept("fault " + done);
    }

    private String kill(Fault fault) {
        Optional<PipelineProcess> victim = pipeline.pick(fault.role(), random);
        if (victim.isEmpty()) {
            return InjectedFault.SKIPPED + "kill -9: no live " + fault.role().shortName();
        }
        String what = victim.get().toString();
        pipeline.kill(victim.get());
        long until = System.nanoTime() + fault.downFor().toNanos();
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(TICK.toNanos());
        }
        PipelineProcess replacement = pipeline.restart(victim.get());
        return "kill -9 " + what + ", restarted as " + replacement.name() + " after " + fault.downFor().toMillis()
            + " ms";
    }

    private String killMidTransaction(Fault fault) {
        String transaction;
        try {
            transaction = source.wideTransaction();
        } catch (SQLException e) {
            return InjectedFault.SKIPPED + "the wide transaction failed: " + e.getMessage();
        }
        // every ingest process: the active one reads the transaction, a standby may be the one a pick finds
        List<PipelineProcess> victims = pipeline.processes(fault.role());
        if (victims.isEmpty()) {
            return InjectedFault.SKIPPED + transaction + ", but no live " + fault.role().shortName();
        }
        victims.forEach(pipeline::kill);
        long until = System.nanoTime() + fault.downFor().toNanos();
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(TICK.toNanos());
        }
        List<String> restarted = victims.stream().map(v -> v + " restarted as " + pipeline.restart(v).name())
            .toList();
        return transaction + ", then kill -9 of every " + fault.role().shortName() + ": " + restarted + " after "
            + fault.downFor().toMillis() + " ms";
    }

    private String newTable() {
        try {
            return "created " + source.newTenant() + " with " + SourceFaults.TENANT_ROWS_TEXT;
        } catch (SQLException e) {
            return InjectedFault.SKIPPED + "creating a tenant failed: " + e.getMessage();
        }
    }

    private String add(ProcessRole role) {
        if (pipeline.processes(role).size() >= MAX_PER_ROLE) {
            return InjectedFault.SKIPPED + "add " + role.shortName() + ": " + MAX_PER_ROLE + " run already";
        }
        return "add " + pipeline.start(role).name();
    }

    private String remove(ProcessRole role) {
        List<PipelineProcess> live = pipeline.processes(role);
        if (live.size() < 2) {
            return InjectedFault.SKIPPED + "remove " + role.shortName() + ": only " + live.size() + " runs";
        }
        PipelineProcess victim = live.get(random.nextInt(live.size()));
        pipeline.stop(victim);
        return "stop (SIGTERM) " + victim;
    }

    /** Stops injecting (a kill in progress finishes with its restart) and waits for the thread. */
    @Override
    public void stop() {
        stopping = true;
        try {
            thread.join(STOP_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("The fault injector did not end within " + STOP_TIMEOUT);
        }
        if (failure != null) {
            throw new IllegalStateException("The fault injector failed", failure);
        }
    }

    /** Faults injected so far. */
    public synchronized List<InjectedFault> injected() {
        return List.copyOf(injected);
    }

    /** How many planned faults did not fire (the run ended first) or found nothing to act on. */
    public synchronized int skipped() {
        return plan.faults().size() - (int) injected.stream().filter(InjectedFault::applied).count();
    }
}
