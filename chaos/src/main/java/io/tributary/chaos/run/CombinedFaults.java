package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * Several {@link RunFaults} in one run, each on its own thread as if it were alone, so their faults interleave:
 * e.g. a {@link FaultInjector} killing processes while a scenario restarts the broker. The process settings are
 * each part's derivation applied in turn (a proxy for the source from one part, one for storage from another);
 * {@link #start} starts every part, {@link #stop} stops every part (each completes its fault in progress) and
 * fails if any part failed. Crashed processes are restarted by whichever part waits first ({@link CrashWatcher}
 * is thread-safe). Calls come from the flow's thread.
 */
public final class CombinedFaults implements RunFaults {

    private final List<RunFaults> parts;

    /** @param parts the fault sources, at least one; started in this order, stopped in this order */
    public CombinedFaults(List<RunFaults> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("Combined faults need at least one part");
        }
        this.parts = List.copyOf(parts);
    }

    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        PipelineSettings settings = direct;
        for (RunFaults part : parts) {
            settings = part.processSettings(settings);
        }
        return settings;
    }

    @Override
    public void start(ProcessPipeline pipeline, CrashWatcher crashes) {
        parts.forEach(part -> part.start(pipeline, crashes));
    }

    /**
     * Stops every part, even when one fails.
     *
     * @throws IllegalStateException naming every part that failed or did not end in time
     */
    @Override
    public void stop() {
        List<RuntimeException> failures = new ArrayList<>();
        for (RunFaults part : parts) {
            try {
                part.stop();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException(failures.size() + " of " + parts.size()
                + " fault sources failed: " + failures.stream().map(Throwable::getMessage).toList());
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }
}
