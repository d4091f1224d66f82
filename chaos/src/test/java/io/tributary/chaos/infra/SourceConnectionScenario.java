package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.Phase;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.TcpProxy;
import java.time.Duration;

/**
 * Every source connection of the pipeline (the ingest's replication stream, the planner's and the snapshot
 * workers' reads) goes through a {@link TcpProxy}, which drops them all at random points of both phases and, once
 * per phase, refuses new connections for 2 to 5 s (the source is down) after dropping the open ones.
 */
public final class SourceConnectionScenario implements InfraScenario {

    private final TcpProxy proxy;
    private final int dropsPerPhase;

    /**
     * @param source        the run's source database
     * @param dropsPerPhase connection drops per phase besides the outage
     */
    public SourceConnectionScenario(PgEndpoint source, int dropsPerPhase) {
        this.proxy = Endpoints.proxyTo(source);
        this.dropsPerPhase = dropsPerPhase;
    }

    @Override
    public String name() {
        return "source-connections";
    }

    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        return direct.withSource(Endpoints.through(direct.source(), proxy));
    }

    @Override
    public void inject(FaultContext context) {
        if (context.awaitSnapshotRunning(context.between(Duration.ofMillis(500), Duration.ofSeconds(2)))) {
            faults(context, Phase.SNAPSHOT, Duration.ofMillis(500), Duration.ofSeconds(3));
        }
        if (context.awaitStreaming(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)))) {
            faults(context, Phase.STREAMING, Duration.ofSeconds(1), Duration.ofSeconds(4));
        }
    }

    private void faults(FaultContext context, Phase intended, Duration minGap, Duration maxGap) {
        int outageAt = context.random().nextInt(dropsPerPhase + 1);
        for (int i = 0; i <= dropsPerPhase; i++) {
            if (i == outageAt) {
                outage(context, intended);
            } else {
                Phase hit = context.phase();
                long bytes = proxy.bytesForwarded();
                proxy.dropConnections();
                context.injected("dropped every source connection (" + bytes + " bytes forwarded so far)", intended,
                    hit);
            }
            if (!context.pause(context.between(minGap, maxGap))) {
                return;
            }
        }
    }

    private void outage(FaultContext context, Phase intended) {
        Phase hit = context.phase();
        Duration down = context.between(Duration.ofSeconds(2), Duration.ofSeconds(5));
        proxy.setRefusing(true);
        proxy.dropConnections();
        try {
            context.hold(down);
        } finally {
            proxy.setRefusing(false);
        }
        context.injected("source down (connections dropped and refused) for " + down.toMillis() + " ms", intended,
            hit);
    }

    @Override
    public void close() {
        proxy.close();
    }
}
