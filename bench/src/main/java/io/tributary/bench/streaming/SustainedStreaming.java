package io.tributary.bench.streaming;

import io.tributary.bench.debezium.DebeziumDrain;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.BrokerRequests;
import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.StageCpu;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.messages.Lsn;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * Scenario S, streaming through a running pipeline (database {@code stream}, workers_per_process 2, snapshot of
 * the {@code rows}-row table done and covered before anything is timed):
 * <ul>
 *   <li>S1: {@code rows x updates} changes committed as fast as one connection can (1,000-row transactions),
 *       timed from the first commit to the first checkpoint covering the WAL end after the last; {@code passes}
 *       times through the same pipeline: the first (its code still being compiled) and the last, the figure the
 *       drain (S3, which runs on code the passes compiled) is compared with, are recorded; the passes between only
 *       let the JIT finish (logged);</li>
 *   <li>S2: a paced writer at a fixed rate; per transaction the lag from its commit to the first checkpoint
 *       seen covering {@code pg_current_wal_lsn()} read right after it (storage polled every 10 ms);</li>
 *   <li>S3: Debezium's raw drain of the same WAL (every change of S1 and S2), through a slot and publication
 *       created before S1, read after the pipeline stopped (one slot per repetition);</li>
 *   <li>S3 with transaction metadata: the same drain with {@code provide.transaction.metadata=true}, as ingest
 *       runs it (BEGIN and END records, a transaction block in every event), through a second slot;</li>
 *   <li>S4: the floor of one exactly-once Kafka hop of those changes ({@link KafkaHop}).</li>
 * </ul>
 */
public final class SustainedStreaming {

    /** Sizes and pace. */
    public record Settings(int rows, int updates, int passes, int lagRate, Duration lagDuration,
                           int lagTransactionRows) {
        public Settings {
            if (rows < 1 || updates < 1 || lagRate < 1 || lagTransactionRows < 1 || lagDuration.isNegative()) {
                throw new IllegalArgumentException("streaming settings must be positive");
            }
            if (passes < 2) {
                throw new IllegalArgumentException("S1 needs at least 2 passes (the cold one and a warm one), got "
                    + passes);
            }
        }
    }

    private static final String S1 = "S1 sustained streaming to checkpoint";
    private static final String S1_COLD = "S1 first pass (cold pipeline)";
    private static final String S1_WARM_UP = "S1 warm-up pass";
    private static final String S2 = "S2 end-to-end lag at a fixed rate";
    private static final String S3 = "S3 Debezium raw drain (same WAL)";
    private static final String S3_TX = "S3 Debezium raw drain with transaction metadata (same WAL)";
    private static final Duration POLL = Duration.ofMillis(10);

    private SustainedStreaming() {
    }

    /** Runs S1, S2 and S3 and adds their rows. */
    public static void run(BenchContext ctx, Path rules, Settings settings, int repeat) throws Exception {
        PgEndpoint source = ctx.database("stream");
        try (Connection c = source.connect()) {
            Dataset.load(c, settings.rows());
        }
        PipelineRun.Settings pipeline = ctx.pipeline("bench_s", source.jdbcUrl(), rules, 2);
        PgEndpoint storage = new PgEndpoint(pipeline.storageUrl(), pipeline.user(), "");
        List<String> drains = new ArrayList<>();
        List<String> metadataDrains = new ArrayList<>();
        long[] written = {0};
        BenchContext.log("scenario S, starting the pipeline ...");
        try (PipelineRun.Running running = PipelineRun.start(pipeline);
             CheckpointWatch watch = CheckpointWatch.start(storage, POLL)) {
            if (watch.awaitCovering(walEnd(source), ctx.timeout()).isEmpty()) {
                ctx.record(S1, "snapshot before streaming", attempt -> Row.failed(S1, "snapshot before streaming",
                    settings.rows(), ctx.timeout().toSeconds(), "TIMEOUT: no checkpoint; " + tail(running)
                        + watch.lastFailure().map(e -> "; storage: " + e.getMessage()).orElse("")));
                ctx.keepLog("bench_s", running.stop());
                return;
            }
            for (int i = 0; i < repeat; i++) {
                drains.add(createDrainSlot(source, "bench_drain_" + i));
                metadataDrains.add(createDrainSlot(source, "bench_drain_tx_" + i));
            }
            ctx.record(S1_COLD, configuration(settings), pass(ctx, S1_COLD, source, watch, settings, written));
            for (int warmUp = 2; warmUp < settings.passes(); warmUp++) {
                Row row = pass(ctx, S1_WARM_UP, source, watch, settings, written).run(0);
                BenchContext.log("S1 warm-up pass %d of %d: %,.0f changes/s; %s", warmUp, settings.passes(),
                    row.rate().orElse(0.0), row.notes());
            }
            ctx.record(S1, configuration(settings), pass(ctx, S1, source, watch, settings, written));
            lag(ctx, source, watch, settings, written);
            ctx.keepLog("bench_s", running.stop());
        }
        String configuration = String.format(Locale.ROOT, "the WAL of S1 and S2 (%,d changes), snapshot.mode=no_data,"
            + " events counted and dropped", written[0]);
        ctx.record(S3, configuration, attempt -> DebeziumDrain.run(S3, configuration, source, drains.get(attempt),
            written[0], ctx.timeout()));
        String withMetadata = configuration + ", provide.transaction.metadata=true (as ingest)";
        Properties metadata = new Properties();
        metadata.setProperty("provide.transaction.metadata", "true");
        ctx.record(S3_TX, withMetadata, attempt -> DebeziumDrain.run(S3_TX, withMetadata, source,
            metadataDrains.get(attempt), written[0], ctx.timeout(), metadata));
        KafkaHop.run(ctx, pipeline.name() + ".changes");
    }

    private static String configuration(Settings settings) {
        return String.format(Locale.ROOT, "running pipeline, %,d rows x %d updates in 1k-row transactions,"
            + " workers_per_process 2", settings.rows(), settings.updates());
    }

    /** One pass of S1: every row updated {@code updates} times, timed to the checkpoint covering the last. */
    private static BenchContext.Measurement pass(BenchContext ctx, String scenario, PgEndpoint source,
                                                 CheckpointWatch watch, Settings settings, long[] written) {
        long changes = (long) settings.rows() * settings.updates();
        String configuration = configuration(settings);
        return attempt -> {
            BenchContext.log("scenario %s, committing %,d updates ...", scenario, changes);
            StageCpu stages = StageCpu.start();
            CpuUse before = ctx.cpu().total();
            List<Long> servers = ctx.cpu().postmasterPids();
            CpuUse sourceBefore = CpuProbe.of(servers.subList(0, 1)).total();
            Map<String, Long> requestsBefore = BrokerRequests.counts();
            long start = System.nanoTime();
            try (Connection c = source.connect()) {
                Dataset.update(c, settings.rows(), settings.updates(), 1_000);
            }
            long committed = System.nanoTime();
            written[0] += changes;
            OptionalLong covered = watch.awaitCovering(walEnd(source), ctx.timeout());
            if (covered.isEmpty()) {
                return Row.failed(scenario, configuration, changes, (System.nanoTime() - start) / 1e9, "TIMEOUT");
            }
            CpuUse used = ctx.cpu().total().since(before);
            Map<String, Long> requests = BrokerRequests.since(requestsBefore, BrokerRequests.counts());
            double sourceServer = CpuProbe.of(servers.subList(0, 1)).total().since(sourceBefore).postgresSeconds();
            return Row.ok(scenario, configuration, changes, (covered.getAsLong() - start) / 1e9,
                String.format(Locale.ROOT,
                "WAL changes; first commit to the first checkpoint covering the last (written in %.1f s); %s;"
                    + " Postgres us/change: source (writes, walsender) %.0f, storage %.0f; broker requests per 1,000"
                    + " changes: %s",
                (committed - start) / 1e9, StageCpu.note(stages.since(), used.jvmSeconds(), used.jitSeconds(),
                    changes), sourceServer * 1e6 / changes,
                (used.postgresSeconds() - sourceServer) * 1e6 / changes,
                BrokerRequests.perThousandRows(requests, changes, 12)));
        };
    }

    private static void lag(BenchContext ctx, PgEndpoint source, CheckpointWatch watch, Settings settings,
                            long[] written) {
        String configuration = String.format(Locale.ROOT, "running pipeline, %,d changes/s in %d-row transactions"
            + " for %d s", settings.lagRate(), settings.lagTransactionRows(), settings.lagDuration().toSeconds());
        ctx.record(S2, configuration, attempt -> {
            BenchContext.log("scenario S2, paced writer ...");
            List<PacedWriter.Commit> commits = new PacedWriter(source, settings.rows(), settings.lagTransactionRows())
                .write(settings.lagRate(), settings.lagDuration());
            long changes = (long) commits.size() * settings.lagTransactionRows();
            written[0] += changes;
            watch.awaitCovering(commits.get(commits.size() - 1).lsn(), Duration.ofSeconds(60));
            LagStats stats = LagStats.of(commits, watch::covering);
            double seconds = (commits.get(commits.size() - 1).nanos() - commits.get(0).nanos()) / 1e9;
            Row row = Row.ok(S2, configuration, changes, seconds, stats.notes() + "; target p99 < 1 s;"
                + " rows/s = the rate the writer achieved");
            return stats.uncovered() == 0 ? row : Row.failed(S2, configuration, changes, seconds,
                "FAILED: " + stats.notes());
        });
    }

    private static String createDrainSlot(PgEndpoint source, String name) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE PUBLICATION " + name + " FOR TABLE " + Dataset.TABLE);
            s.execute("SELECT pg_create_logical_replication_slot('" + name + "', 'pgoutput')");
        }
        return name;
    }

    private static Lsn walEnd(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    private static String tail(PipelineRun.Running running) {
        List<String> lines = running.output().lines().toList();
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
    }
}
