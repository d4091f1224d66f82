package io.tributary.bench.tpcb;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario T, a fresh sync rules group on a running pipeline, without and with a steady TPC-B-style write load
 * (database {@code tpcb}, workers_per_process 2). The pipeline snapshots the {@link TpcbSchema} tables with rules
 * version 1; an untimed deploy of version 2 warms every path a replay takes; then:
 * <ul>
 *   <li>T1: {@code tributary deploy} of the next version while the source is idle, timed from the call to the new
 *       group's first checkpoint (storage polled every 20 ms): a replay of {@code rows} of every account, teller
 *       and branch;</li>
 *   <li>T2: the same with {@link TpcbClients} running (started 5 s before the deploy, stopped after the
 *       checkpoint); its notes give the ratio to T1 (target: at most 2x) and the load's achieved rate.</li>
 * </ul>
 * Each repetition deploys two more versions. The CPU of T2 includes the load's (source server and the clients).
 */
public final class NewGroupUnderLoad {

    /** Sizes and load. */
    public record Settings(TpcbSchema schema, int clients, int tps) {
        public Settings {
            if (clients < 1 || tps < 1) {
                throw new IllegalArgumentException("TPC-B clients and tps must be >= 1");
            }
        }
    }

    private static final String T1 = "T1 new group's first checkpoint, idle source";
    private static final String T2 = "T2 new group's first checkpoint under TPC-B load";
    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration WARM_UP = Duration.ofSeconds(5);

    private NewGroupUnderLoad() {
    }

    /** Runs T1 and T2 and adds their rows. */
    public static void run(BenchContext ctx, Settings settings) throws Exception {
        PgEndpoint source = ctx.database("tpcb");
        try (Connection c = source.connect()) {
            settings.schema().load(c);
        }
        Path rules = ctx.rulesFile("tpcb-rules-v1", TpcbSchema.syncRules(1));
        PipelineRun.Settings pipeline = ctx.pipeline("bench_t", source.jdbcUrl(), rules, 2);
        PgEndpoint storage = pipeline.storage();
        long rows = settings.schema().groupRows();
        BenchContext.log("scenario T, starting the pipeline over %,d rows ...", rows);
        try (PipelineRun.Running running = PipelineRun.start(pipeline)) {
            if (firstCheckpoint(storage, 1, ctx.timeout()).isEmpty()) {
                ctx.record(T1, "snapshot before the new groups", attempt -> Row.failed(T1, "snapshot",
                    rows, ctx.timeout().toSeconds(), "TIMEOUT: the first group has no checkpoint"));
                ctx.keepLog("bench_t", running.stop());
                return;
            }
            int[] version = {2};
            long warm = timedDeploy(ctx, pipeline, version[0]++);
            BenchContext.log("scenario T, warm-up group took %.1f s", warm / 1e9);
            double[] idle = {Double.NaN};
            String idleConfiguration = String.format(Locale.ROOT, "running pipeline, deploy of a new sync rules"
                + " version replaying %,d rows (%,d accounts, %d tellers, %d branches), source idle,"
                + " workers_per_process 2", rows, settings.schema().accounts(), settings.schema().tellers(),
                settings.schema().branches());
            Row idleRow = ctx.record(T1, idleConfiguration, attempt -> {
                long nanos = timedDeploy(ctx, pipeline, version[0]++);
                if (nanos < 0) {
                    return Row.failed(T1, idleConfiguration, rows, ctx.timeout().toSeconds(), "TIMEOUT");
                }
                return Row.ok(T1, idleConfiguration, rows, nanos / 1e9,
                    "deploy call to the new group's first checkpoint; an untimed group deployed before it");
            });
            idle[0] = idleRow.seconds();
            String loadConfiguration = String.format(Locale.ROOT, "as T1, while %d TPC-B clients commit %,d"
                + " transactions/s in total (update accounts, tellers, branches; insert history)",
                settings.clients(), settings.tps());
            ctx.record(T2, loadConfiguration, attempt -> underLoad(ctx, pipeline, source, settings, version,
                loadConfiguration, idle[0]));
            ctx.keepLog("bench_t", running.stop());
        }
        BenchContext.dropSlot(source, pipeline.name());
    }

    private static Row underLoad(BenchContext ctx, PipelineRun.Settings pipeline, PgEndpoint source,
                                 Settings settings, int[] version, String configuration, double idleSeconds)
        throws Exception {
        long rows = settings.schema().groupRows();
        try (TpcbClients load = TpcbClients.start(source, settings.schema(), settings.clients(), settings.tps())) {
            LockSupport.parkNanos(WARM_UP.toNanos());
            TpcbClients.Done before = load.sinceStart();
            long nanos = timedDeploy(ctx, pipeline, version[0]++);
            TpcbClients.Done after = load.sinceStart();
            double seconds = after.seconds() - before.seconds();
            double tps = seconds > 0 ? (after.transactions() - before.transactions()) / seconds : 0;
            String loadNote = String.format(Locale.ROOT, "load during the window: %,.0f transactions/s"
                + " (%,.0f captured changes/s; %,d failed transactions since the load started%s)", tps, 3 * tps,
                after.failures(), load.lastFailure().map(e -> ", last: " + e.getMessage()).orElse(""));
            if (nanos < 0) {
                return Row.failed(T2, configuration, rows, ctx.timeout().toSeconds(), "TIMEOUT; " + loadNote);
            }
            String ratio = idleSeconds > 0 ? String.format(Locale.ROOT, "%.2fx T1's time", nanos / 1e9 / idleSeconds)
                : "T1 has no time";
            return Row.ok(T2, configuration, rows, nanos / 1e9, ratio + " (target <= 2x); " + loadNote
                + "; CPU includes the load's");
        }
    }

    /** Deploys rules {@code version}; the nanoseconds to its group's first checkpoint, -1 past the timeout. */
    private static long timedDeploy(BenchContext ctx, PipelineRun.Settings pipeline, int version) throws Exception {
        Path file = ctx.rulesFile("tpcb-rules-v" + version, TpcbSchema.syncRules(version));
        BenchContext.log("scenario T, deploying rules version %d ...", version);
        long start = System.nanoTime();
        long group = PipelineRun.deploy(pipeline, file);
        OptionalLong at = firstCheckpoint(pipeline.storage(), group, ctx.timeout());
        return at.isPresent() ? at.getAsLong() - start : -1;
    }

    /** Polls until group {@code group} has a checkpoint; returns when it was first seen. */
    private static OptionalLong firstCheckpoint(PgEndpoint storage, long group, Duration timeout)
        throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = storage.connect(); PreparedStatement s = c.prepareStatement(
                "SELECT checkpoint_lsn IS NOT NULL FROM tributary.sync_rules WHERE group_id = ?")) {
                s.setLong(1, group);
                while (System.nanoTime() < deadline) {
                    try (ResultSet rs = s.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            return OptionalLong.of(System.nanoTime());
                        }
                    }
                    LockSupport.parkNanos(POLL.toNanos());
                }
            } catch (SQLException e) {
                last = e;
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        }
        if (last != null) {
            BenchContext.log("storage polls failed, the last: %s", last.getMessage());
        }
        return OptionalLong.empty();
    }
}
