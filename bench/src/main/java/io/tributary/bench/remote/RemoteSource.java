package io.tributary.bench.remote;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Baselines;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.TcpProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenario R, a "remote source": every connection to the source database (snapshot chunk reads, the planner,
 * ingest's replication stream, and the sequential baseline) goes through a {@link TcpProxy} that delays each
 * forwarded chunk by {@code latency} one way, so round trips, not the CPU, limit a single reader. R1 is the
 * sequential keyset read (B1) through the proxy, R2 the full pipeline's snapshot to first checkpoint per workers
 * value; storage and Kafka stay local.
 */
public final class RemoteSource {

    private RemoteSource() {
    }

    /** Measures R1 and R2 on {@code source}'s {@code items} table. */
    public static void run(BenchContext ctx, PgEndpoint source, Path rules, long rows, List<Integer> workers,
                           Duration latency) throws Exception {
        try (TcpProxy proxy = TcpProxy.start("localhost", ctx.sourceServer().port())) {
            proxy.setLatency(latency);
            String url = "jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/" + source.database();
            PgEndpoint remote = new PgEndpoint(url, source.user(), source.password());
            String via = String.format(Locale.ROOT, "+%d ms each way", latency.toMillis());
            String configuration = "1 connection, keyset chunks of 20k, columns as text, " + via;
            ctx.record("R1 remote: sequential snapshot", configuration, attempt -> Baselines.ok(
                "R1 remote: sequential snapshot", configuration, Baselines.keysetRead(remote), "B1 through the proxy"));
            Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "R2 remote: snapshot to first checkpoint",
                "full pipeline, source " + via, "bench_r", new SnapshotSeries.Source(url, source, rules, rows,
                    Optional.of(Dataset.expected(1))),
                workers);
            last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
        }
    }
}
