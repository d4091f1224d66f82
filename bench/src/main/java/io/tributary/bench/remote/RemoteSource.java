package io.tributary.bench.remote;

import io.tributary.bench.direct.DirectSeries;
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
 * forwarded chunk by the link's latency one way and caps each connection's bandwidth, so round trips and the link,
 * not the CPU, limit a single reader. R1 is the sequential keyset read (B1) through the proxy, R2 the full
 * pipeline's snapshot to first checkpoint per workers value, R3 (with X) the direct path through the same proxy;
 * storage and Kafka stay local.
 */
public final class RemoteSource {

    private RemoteSource() {
    }

    /** The link to the source: one-way latency and bytes per second per connection and direction (0 = no cap). */
    public record Link(Duration latency, long bytesPerSecond) {

        /** How the configuration column describes the link. */
        String describe() {
            String delay = String.format(Locale.ROOT, "+%d ms each way", latency.toMillis());
            return bytesPerSecond == 0 ? delay : String.format(Locale.ROOT, "%s, %.2f MB/s per connection", delay,
                bytesPerSecond / 1e6);
        }
    }

    /** Measures R1 and R2 (and R3 when {@code direct}) on {@code source}'s {@code items} table. */
    public static void run(BenchContext ctx, PgEndpoint source, Path rules, long rows, List<Integer> workers,
                           Link link, boolean direct) throws Exception {
        try (TcpProxy proxy = TcpProxy.start("localhost", ctx.sourceServer().port())) {
            proxy.setLatency(link.latency());
            proxy.setBandwidth(link.bytesPerSecond());
            String url = "jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/" + source.database();
            PgEndpoint remote = new PgEndpoint(url, source.user(), source.password());
            String via = link.describe();
            String configuration = "1 connection, keyset chunks of 20k, columns as text, " + via;
            ctx.recordFromRest("R1 remote: sequential snapshot", configuration, attempt -> Baselines.ok(
                "R1 remote: sequential snapshot", configuration, Baselines.keysetRead(remote), "B1 through the proxy"));
            Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "R2 remote: snapshot to first checkpoint",
                "full pipeline, source " + via + ", chunks of " + ctx.chunkRows(), "bench_r",
                new SnapshotSeries.Source(url, source, rules, rows, Optional.of(Dataset.expected(1))),
                workers);
            last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
            if (direct) {
                DirectSeries.run(ctx, "R3 remote: direct path", "source " + via + ", chunks of " + ctx.chunkRows()
                    + ", sync rules, COPY of 5k ops per transaction", "direct_remote", remote, source, workers,
                    "R2 remote: snapshot to first checkpoint");
            }
        }
    }
}
