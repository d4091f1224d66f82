package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.Phase;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.testing.net.TcpProxy;
import java.time.Duration;
import java.util.Random;

/**
 * Every storage connection of the pipeline goes through a {@link TcpProxy} that delays each chunk by a one-way
 * latency drawn from the seed in 20 to 50 ms, from the first process on; mid-snapshot the latency rises to 2.5
 * times that for a few seconds. Slow storage must become backpressure, not a restart loop: while it is slow no
 * process may exit (a crash fails the run) and the ACTIVE group's checkpoint must advance over 15 s of streaming
 * (else the scenario fails). Then storage recovers (no latency) and the run must converge as any run.
 *
 * <p>Storage stays slow for a bounded time because a storage writer behind such latency seals fewer epochs per
 * second than the ingest opens (docs/chaos.md, findings): its lag would grow for as long as the latency lasts.
 */
public final class SlowStorageScenario implements InfraScenario {

    private static final Duration SLOW_STREAMING = Duration.ofSeconds(15);

    private final TcpProxy proxy;
    private final Duration latency;

    /**
     * @param storage the run's storage database
     * @param seed    the run's seed, which draws the latency
     */
    public SlowStorageScenario(PgEndpoint storage, long seed) {
        this.proxy = Endpoints.proxyTo(storage);
        this.latency = Duration.ofMillis(20 + new Random(seed).nextInt(31));
        proxy.setLatency(latency);
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
        try {
            context.injected("storage latency " + latency.toMillis() + " ms each way from the first process on",
                Phase.SNAPSHOT, context.phase());
            if (context.awaitSnapshotRunning(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)))) {
                spike(context);
            }
            if (context.awaitStreaming(Duration.ZERO)) {
                slowStreaming(context);
            }
        } finally {
            proxy.setLatency(Duration.ZERO);
        }
    }

    private void spike(FaultContext context) {
        Phase hit = context.phase();
        Duration slower = latency.multipliedBy(5).dividedBy(2);
        Duration length = context.between(Duration.ofSeconds(3), Duration.ofSeconds(8));
        proxy.setLatency(slower);
        context.hold(length);
        proxy.setLatency(latency);
        context.injected("storage latency " + slower.toMillis() + " ms each way for " + length.toMillis() + " ms",
            Phase.SNAPSHOT, hit);
    }

    private void slowStreaming(FaultContext context) {
        Phase hit = context.phase();
        long before = checkpointOpId(context);
        context.hold(SLOW_STREAMING);
        long after = checkpointOpId(context);
        context.injected("storage latency " + latency.toMillis() + " ms each way while streaming for "
            + SLOW_STREAMING.toSeconds() + " s: checkpoint op " + before + " -> " + after, Phase.STREAMING, hit);
        if (after <= before) {
            throw new IllegalStateException("The checkpoint did not advance in " + SLOW_STREAMING
                + " of storage latency " + latency + " (op " + before + ")");
        }
        proxy.setLatency(Duration.ZERO);
        context.injected("storage recovered (no latency)", Phase.STREAMING, context.phase());
    }

    private static long checkpointOpId(FaultContext context) {
        return context.newestGroup().flatMap(SyncRulesGroup::checkpoint).map(Checkpoint::opId).orElse(0L);
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
