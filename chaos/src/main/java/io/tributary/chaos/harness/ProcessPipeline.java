package io.tributary.chaos.harness;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The pipeline of one run as separate processes, by role. Each role instance has a slot number; a restart starts
 * a new incarnation in the same slot ({@code stream-worker-1.1}, then {@code stream-worker-1.2}). The harness tells
 * faults it injects ({@link #kill}, {@link #stop}) from crashes of the pipeline itself ({@link #crashes()}).
 *
 * <p>Typical use:
 * <pre>
 * try (ProcessPipeline pipeline = new ProcessPipeline(settings, log::println)) {
 *     pipeline.start(ProcessRole.STREAM_WORKER);
 *     pipeline.start(ProcessRole.INGEST);
 *     pipeline.awaitReady(Duration.ofSeconds(90));
 *     PipelineProcess victim = pipeline.pick(ProcessRole.STORAGE_WRITER, random).orElseThrow();
 *     pipeline.kill(victim);              // kill -9
 *     pipeline.restart(victim);           // a new incarnation in its slot
 * }
 * </pre>
 * Thread-safe (every method is synchronized, except waits).
 */
public final class ProcessPipeline implements AutoCloseable {

    /** How long a graceful stop may take before the process is killed (compose's stop_grace_period). */
    public static final Duration STOP_GRACE = Duration.ofSeconds(40);

    private final Consumer<String> events;
    private final Map<ProcessRole, Integer> nextSlot = new EnumMap<>(ProcessRole.class);
    private final Map<String, Integer> incarnations = new HashMap<>();
    private final List<PipelineProcess> live = new ArrayList<>();
    private final List<PipelineProcess> ended = new ArrayList<>();
    private volatile PipelineSettings settings;

    /**
     * A pipeline with no process yet.
     *
     * @param events receives one line per start, kill, stop and restart
     */
    public ProcessPipeline(PipelineSettings settings, Consumer<String> events) {
        this.settings = settings;
        this.events = events;
    }

    /** The settings processes started from now on get. */
    public PipelineSettings settings() {
        return settings;
    }

    /** Changes the settings of processes started from now on (running ones keep theirs). */
    public void settings(PipelineSettings changed) {
        this.settings = changed;
    }

    /** Starts one more process of {@code role}, in a new slot. */
    public synchronized PipelineProcess start(ProcessRole role) {
        int slot = nextSlot.merge(role, 1, Integer::sum);
        return startIn(role, role.shortName() + "-" + slot);
    }

    private PipelineProcess startIn(ProcessRole role, String slotName) {
        int incarnation = incarnations.merge(slotName, 1, Integer::sum);
        PipelineProcess process = PipelineProcess.start(slotName + "." + incarnation, role, settings);
        live.add(process);
        events.accept("start " + process);
        return process;
    }

    /** A random live process of {@code role}, if any. */
    public synchronized Optional<PipelineProcess> pick(ProcessRole role, Random random) {
        List<PipelineProcess> candidates = processes(role);
        return candidates.isEmpty() ? Optional.empty()
            : Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    /** The live processes of {@code role}, oldest first. */
    public synchronized List<PipelineProcess> processes(ProcessRole role) {
        return live.stream().filter(p -> p.role() == role && p.isAlive()).collect(Collectors.toList());
    }

    /** Every process started so far, live or not. */
    public synchronized List<PipelineProcess> all() {
        List<PipelineProcess> all = new ArrayList<>(ended);
        all.addAll(live);
        return all;
    }

    /** {@code kill -9} of {@code process}; it stays down until {@link #restart}ed. */
    public synchronized void kill(PipelineProcess process) {
        process.kill();
        retire(process);
        events.accept("kill -9 " + process);
    }

    /** Graceful stop ({@code SIGTERM}, then kill after {@link #STOP_GRACE}) of {@code process}. */
    public void stop(PipelineProcess process) {
        boolean graceful = process.stop(STOP_GRACE);
        synchronized (this) {
            retire(process);
        }
        events.accept("stop " + process + (graceful ? "" : " (did not stop within " + STOP_GRACE.toSeconds()
            + " s: killed)"));
    }

    /** A new incarnation of the {@link #kill}ed, {@link #stop}ped or crashed {@code process}, in its slot. */
    public synchronized PipelineProcess restart(PipelineProcess process) {
        retire(process);
        String name = process.name();
        return startIn(process.role(), name.substring(0, name.lastIndexOf('.')));
    }

    private void retire(PipelineProcess process) {
        if (live.remove(process)) {
            ended.add(process);
        }
    }

    /** Processes that exited on their own so far (crashes of the pipeline, not injected faults). */
    public synchronized List<ProcessExit> crashes() {
        List<ProcessExit> crashes = new ArrayList<>();
        for (PipelineProcess process : all()) {
            if (process.exitedOnItsOwn()) {
                crashes.add(new ProcessExit(process.name(), process.exitCode().orElse(-1), process.logTail(40)));
            }
        }
        return crashes;
    }

    /**
     * Waits until every live process answers {@code /health/ready}.
     *
     * @throws IllegalStateException on timeout or when a process exits meanwhile, naming them with their logs
     */
    public void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<PipelineProcess> processes;
            synchronized (this) {
                processes = List.copyOf(live);
            }
            List<ProcessExit> crashes = crashes();
            if (!crashes.isEmpty()) {
                throw new IllegalStateException("A process exited while starting: " + crashes);
            }
            List<PipelineProcess> waiting = processes.stream().filter(p -> !p.ready()).toList();
            if (waiting.isEmpty()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("Not ready within " + timeout + ": " + waiting + "\n" + waiting.stream()
                    .map(p -> "--- " + p.name() + " ---\n" + p.logTail(30)).collect(Collectors.joining("\n")));
            }
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
        }
    }

    /** The end of every process's log, for failure messages. */
    public synchronized String logTails(int lines) {
        return all().stream().map(p -> "--- " + p.name() + (p.isAlive() ? "" : " (ended)") + " ---\n"
            + p.logTail(lines)).collect(Collectors.joining("\n"));
    }

    /** Stops every live process gracefully (in parallel), killing those that do not stop in time. */
    @Override
    public void close() {
        List<PipelineProcess> processes;
        synchronized (this) {
            processes = List.copyOf(live);
        }
        processes.parallelStream().forEach(p -> p.stop(Duration.ofSeconds(20)));
        synchronized (this) {
            processes.forEach(this::retire);
        }
    }
}
