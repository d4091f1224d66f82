package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.Phase;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.TcpProxy;
import java.time.Duration;

/**
 * Every storage connection of the pipeline goes through a {@link TcpProxy} that delays each chunk by a one-way
 * latency drawn from the seed in 20 to 50 ms, from the first process on; mid-snapshot the latency rises to
 * 2.5 times that for a few seconds. Slow storage must become backpressure: the run must converge with no process
 * exiting and checkpoints advancing, as any run.
 */
public final class SlowStorageScenario implements InfraScenario {

    private final TcpProxy proxy;

    /** @param storage the run's storage database */
    public SlowStorageScenario(PgEndpoint storage) {
        this.proxy = Endpoints.proxyTo(storage);
    }

    @Override
    public String name() {
        return "slow-storage";
    }

    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        return direct.withStorage(Endpoints.through(direct.storage(), proxy));
    }

    @Override
    public void inject(FaultContext context) {
        Duration latency = context.between(Duration.ofMillis(20), Duration.ofMillis(50));
        proxy.setLatency(latency);
        context.injected("storage latency " + latency.toMillis() + " ms each way from the start", Phase.SNAPSHOT,
            context.phase());
        if (context.awaitSnapshotRunning(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)))) {
            Phase hit = context.phase();
            Duration slower = latency.multipliedBy(5).dividedBy(2);
            Duration length = context.between(Duration.ofSeconds(3), Duration.ofSeconds(8));
            proxy.setLatency(slower);
            context.hold(length);
            proxy.setLatency(latency);
            context.injected("storage latency " + slower.toMillis() + " ms each way for " + length.toMillis()
                + " ms", Phase.SNAPSHOT, hit);
        }
    }

    /** Bytes the storage proxy forwarded: the processes did talk to storage through it. */
    public long bytesForwarded() {
        return proxy.bytesForwarded();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
