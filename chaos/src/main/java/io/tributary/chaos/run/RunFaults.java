package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineSettings;

/**
 * What a scenario does to a {@link RunFlow} while it runs: process faults ({@link FaultInjector}: kills, additions,
 * removals from a {@link FaultPlan}) or service faults (an infrastructure scenario: broker and storage restarts,
 * proxies that drop connections or add latency).
 *
 * <p>The flow calls {@link #processSettings} once, before the first process starts; {@link #start} once the
 * workers are ready and the workload and the ingest are started (the snapshot phase begins); {@link #stop} once the
 * streaming phase is over, before the writes stop and the checks run. The faults time themselves within the two
 * phases (the newest group becoming ACTIVE marks the streaming phase). Calls come from the flow's thread; an
 * implementation runs its faults on a thread of its own, and restarts processes that exit on their own through the
 * {@link CrashWatcher} it is given, whenever it waits.
 */
public interface RunFaults {

    /** The settings the pipeline's processes get, derived from the direct ones. Default: unchanged. */
    default PipelineSettings processSettings(PipelineSettings direct) {
        return direct;
    }

    /** Starts injecting into {@code pipeline}; returns at once. */
    void start(ProcessPipeline pipeline, CrashWatcher crashes);

    /**
     * Ends the faults and waits for them: a fault in progress completes (a killed process is restarted, a stopped
     * service is back) before this returns.
     *
     * @throws IllegalStateException if the faults failed or did not end in time
     */
    void stop();
}
