package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;

/**
 * One kind of infrastructure fault: how the pipeline's processes reach the services (e.g. through a
 * {@link io.tributary.testing.net.TcpProxy}) and what goes wrong while they run. The workload, the harness's own
 * reads and the checks always reach the services directly, so only the pipeline sees the fault.
 *
 * <p>{@link #inject} runs on the run's fault thread; the run watches for crashed processes meanwhile.
 */
public interface InfraScenario extends AutoCloseable {

    /** A short name for logs and reports, e.g. {@code kafka-restart}. */
    String name();

    /** The settings the pipeline's processes get, derived from the direct ones. Default: unchanged. */
    default PipelineSettings processSettings(PipelineSettings direct) {
        return direct;
    }

    /**
     * Injects the scenario's faults, timed with {@code context}; returns when they are over (every service back).
     * It must leave the services up even when interrupted by {@link FaultContext#stopping()}.
     */
    void inject(FaultContext context) throws Exception;

    /** Releases what the scenario holds (proxies); services passed in are the caller's. Default: nothing. */
    @Override
    default void close() {
    }
}
