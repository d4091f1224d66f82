package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.run.CrashWatcher;
import io.tributary.chaos.run.RunFaults;
import io.tributary.testing.net.TcpProxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Holds a run's snapshot phase open until every scenario's snapshot faults have fired, however fast the pipeline
 * snapshots: the pipeline's processes reach the source through a proxy which, from the moment a fault thread first
 * sees the newest group PROCESSING ({@link #engage()}) until each of the run's {@code holders} has
 * {@linkplain #release() released} it, delays every forwarded chunk by {@link #HELD_LATENCY} each way; before and
 * after, it forwards without delay (the processes start at full speed). Added last to a run's faults, so the proxy
 * is the processes' first hop (in front of any proxy of a scenario).
 *
 * <p>While held, a chunk read waits at least one round trip (1.5 s) for its rows and a snapshot worker process
 * reads at most {@code replication.snapshot.max_concurrent_reads} (4) chunks at once, so a snapshot of {@code n}
 * chunks per process lasts at least {@code n / 4 * 1.5 s} (the CI profile's ~70 chunks: 26 s), longer than any
 * scenario takes to start its snapshot faults (the last at most 13 s after the group's deploy), and the snapshot
 * still reads, streams and writes throughout. The hold engages within one poll (250 ms) of the group's deploy,
 * while the planner is still planning. The delay is a delay line, not a bandwidth cap: the ingest's replication
 * stream keeps its throughput, its changes arrive later. Thread-safe.
 */
final class SnapshotHold implements RunFaults, AutoCloseable {

    /** The one-way delay of every source connection while held. */
    static final Duration HELD_LATENCY = Duration.ofMillis(750);

    private final AtomicInteger holders;
    private final Consumer<String> log;
    private volatile TcpProxy proxy;
    private boolean engaged;
    private boolean lifted;
    private long engagedNanos;

    /**
     * @param holders how many {@link #release()} calls lift the hold, one per fault source whose snapshot faults
     *                it waits for, {@code >= 1}
     */
    SnapshotHold(int holders, Consumer<String> log) {
        if (holders < 1) {
            throw new IllegalArgumentException("a snapshot hold needs at least one holder: " + holders);
        }
        this.holders = new AtomicInteger(holders);
        this.log = log;
    }

    /** The processes reach the source through the hold's proxy (created here, not delaying yet). */
    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        if (proxy != null) {
            throw new IllegalStateException("a snapshot hold serves one run");
        }
        TcpProxy created = Endpoints.proxyTo(direct.source());
        proxy = created;
        return direct.withSource(Endpoints.through(direct.source(), created));
    }

    @Override
    public void start(ProcessPipeline pipeline, CrashWatcher crashes) {
        // Engaged by the fault threads once the snapshot runs.
    }

    /** The snapshot runs: delays the source until released. Once per run; after the hold is lifted, nothing. */
    synchronized void engage() {
        TcpProxy held = proxy;
        if (held != null && !engaged && !lifted) {
            engaged = true;
            engagedNanos = System.nanoTime();
            held.setLatency(HELD_LATENCY);
            log.accept("snapshot held: the source " + HELD_LATENCY.toMillis()
                + " ms away each way until every snapshot fault has fired");
        }
    }

    /** One holder's snapshot faults are over; the last one lifts the hold. Extra calls do nothing more. */
    void release() {
        int left = holders.updateAndGet(n -> Math.max(0, n - 1));
        if (left == 0) {
            lift("every snapshot fault has fired");
        }
    }

    /** Lifts the hold whatever the holders (the faults end). */
    @Override
    public void stop() {
        lift("the faults end");
    }

    private synchronized void lift(String why) {
        TcpProxy held = proxy;
        if (held != null && !lifted) {
            lifted = true;
            held.setLatency(Duration.ZERO);
            if (engaged) {
                log.accept(String.format("snapshot hold lifted after %.1f s: %s",
                    (System.nanoTime() - engagedNanos) / 1e9, why));
            }
        }
    }

    /** Closes the proxy, once the run's processes are gone. */
    @Override
    public void close() {
        TcpProxy held = proxy;
        if (held != null) {
            held.close();
        }
    }
}
