package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.ProcessExit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Restarts the processes of a {@link ProcessPipeline} that exited on their own, as compose's
 * {@code restart: unless-stopped} would, and records each once as a crash (a failure of the run). Thread-safe: the
 * fault thread calls {@link #restartCrashed()} while it waits, the run's thread once more at the end.
 */
public final class CrashWatcher {

    private final ProcessPipeline pipeline;
    private final Consumer<String> log;
    private final Set<String> seen = new HashSet<>();
    private final List<ProcessExit> crashes = new ArrayList<>();

    CrashWatcher(ProcessPipeline pipeline, Consumer<String> log) {
        this.pipeline = pipeline;
        this.log = log;
    }

    /** Restarts every process that exited on its own since the last call, recording it. */
    public synchronized void restartCrashed() {
        for (ProcessExit crash : pipeline.crashes()) {
            if (seen.add(crash.name())) {
                crashes.add(crash);
                log.accept("CRASH (exited on its own): " + crash);
                pipeline.all().stream().filter(p -> p.name().equals(crash.name())).findFirst()
                    .ifPresent(pipeline::restart);
            }
        }
    }

    /** The crashes recorded so far, in the order they were seen. */
    public synchronized List<ProcessExit> crashes() {
        return List.copyOf(crashes);
    }
}
