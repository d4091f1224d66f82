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
 * <p>Among other faults ({@link #amongOtherFaults}) a restart of storage, Kafka or a role can stall every
 * checkpoint for longer than those 15 s by itself (a broker that takes a minute to come back on a loaded box), so
 * there storage stays slow until the checkpoint advances, for up to 90 s: the requirement is that it advances
 * while storage is slow, not how soon.
 *
 * <p>Storage stays slow for a bounded time because a storage writer behind such latency seals fewer epochs per
 * second than the ingest opens (docs/chaos.md): its lag would grow for as long as the latency lasts.
 */
public final class SlowStorageScenario implements InfraScenario {

    private static final Duration SLOW_STREAMING = Duration.ofSeconds(15);
    private static final Duration PATIENCE_AMONG_OTHER_FAULTS = Duration.ofSeconds(90);

    private final TcpProxy proxy;
    private final Duration latency;
    private final Duration patience;

    /**
     * The scenario alone: the checkpoint must advance within 15 s of slow streaming.
     *
     * @param storage the run's storage database
     * @param seed    the run's seed, which draws the latency
     */
    public SlowStorageScenario(PgEndpoint storage, long seed) {
        this(storage, seed, SLOW_STREAMING);
    }

    private SlowStorageScenario(PgEndpoint storage, long seed, Duration patience) {
        this.proxy = Endpoints.proxyTo(storage);
        this.latency = Duration.ofMillis(20 + new Random(seed).nextInt(31));
        this.patience = patience;
        proxy.setLatency(latency);
    }

    /** The scenario in a combined run: the checkpoint must advance while storage is slow, within 90 s. */
    public static SlowStorageScenario amongOtherFaults(PgEndpoint storage, long seed) {
        return new SlowStorageScenario(storage, seed, PATIENCE_AMONG_OTHER_FAULTS);
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
        long started = System.nanoTime();
        context.hold(SLOW_STREAMING);
        long after = checkpointOpId(context);
        while (after <= before && System.nanoTime() - started < patience.toNanos()) {
            context.hold(Duration.ofSeconds(1));
            after = checkpointOpId(context);
        }
        Duration slow = Duration.ofNanos(System.nanoTime() - started);
        context.injected("storage latency " + latency.toMillis() + " ms each way while streaming for "
            + slow.toSeconds() + " s: checkpoint op " + before + " -> " + after, Phase.STREAMING, hit);
        if (after <= before) {
            throw new IllegalStateException("The checkpoint did not advance in " + slow.toSeconds()
                + " s of storage latency " + latency + " (op " + before + ")");
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
