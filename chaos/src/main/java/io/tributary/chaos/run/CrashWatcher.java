package io.tributary.chaos.run;

import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.ProcessRole;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Restarts the processes of a {@link ProcessPipeline} that exited on their own, as compose's
 * {@code restart: unless-stopped} would, and records each once as a crash (a failure of the run). A fault whose
 * documented outcome is that a role stops (ingest refusing a change Kafka will not take, until the operator raises
 * the limit) announces it with {@link #expectExits}: an exit of that role is then recorded as expected, and the
 * process is left stopped for the fault to restart. Thread-safe: the fault thread calls {@link #restartCrashed()}
 * while it waits, the run's thread once more at the end.
 */
public final class CrashWatcher {

    private final ProcessPipeline pipeline;
    private final Consumer<String> log;
    private final Set<String> seen = new HashSet<>();
    private final List<ProcessExit> crashes = new ArrayList<>();
    private final List<ProcessExit> expected = new ArrayList<>();
    private final Set<ProcessRole> expecting = EnumSet.noneOf(ProcessRole.class);

    CrashWatcher(ProcessPipeline pipeline, Consumer<String> log) {
        this.pipeline = pipeline;
        this.log = log;
    }

    /** Restarts every process that exited on its own since the last call, recording it. */
    public synchronized void restartCrashed() {
        for (ProcessExit exit : pipeline.crashes()) {
            if (seen.add(exit.name())) {
                Optional<PipelineProcess> process = pipeline.all().stream().filter(p -> p.name().equals(exit.name()))
                    .findFirst();
                if (process.isPresent() && expecting.contains(process.get().role())) {
                    expected.add(exit);
                    log.accept("exited as the fault expects (left stopped): " + exit);
                    continue;
                }
                crashes.add(exit);
                log.accept("CRASH (exited on its own): " + exit);
                process.ifPresent(pipeline::restart);
            }
        }
    }

    /**
     * From now on (until {@link #expectNoExits}), a process of {@code role} that exits on its own is an expected
     * outcome of the fault, not a crash: it is recorded in {@link #expectedExits()} and not restarted.
     */
    public synchronized void expectExits(ProcessRole role) {
        expecting.add(role);
    }

    /** Exits of {@code role} are crashes again. */
    public synchronized void expectNoExits(ProcessRole role) {
        expecting.remove(role);
    }

    /** The crashes recorded so far, in the order they were seen. */
    public synchronized List<ProcessExit> crashes() {
        return List.copyOf(crashes);
    }

    /** The exits announced by {@link #expectExits}, in the order they were seen. */
    public synchronized List<ProcessExit> expectedExits() {
        return List.copyOf(expected);
    }
}
