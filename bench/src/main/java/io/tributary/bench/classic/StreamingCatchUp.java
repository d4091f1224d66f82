package io.tributary.bench.classic;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRows;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Locale;

/**
 * Scenario D, the classic dataset's streaming catch-up: {@code rows} rows each updated {@code updates} times. A
 * first run snapshots the fresh table and stops (its slot stays); the updates are then committed (1,000-row
 * transactions) while nothing runs; a second run streams the backlog and is timed until the launcher reports a
 * checkpoint past the WAL end. Each repetition uses its own database.
 */
public final class StreamingCatchUp {

    static final int TRANSACTION_ROWS = 1_000;
    private static final String SCENARIO = "D streaming catch-up to checkpoint";

    private StreamingCatchUp() {
    }

    /** Measures D and adds its row. */
    public static void run(BenchContext ctx, Path rules, int rows, int updates) {
        long changes = (long) rows * updates;
        String configuration = String.format(Locale.ROOT, "%,d rows x %d updates, 1k-row transactions,"
            + " workers_per_process 2", rows, updates);
        ctx.record(SCENARIO, configuration, attempt -> {
            String name = "bench_d" + (attempt == 0 ? "" : "_r" + attempt);
            PgEndpoint source = ctx.database("hot" + (attempt == 0 ? "" : "_r" + attempt));
            try (Connection c = source.connect()) {
                Dataset.load(c, rows);
            }
            PipelineRun.Settings settings = ctx.pipeline(name, source.jdbcUrl(), rules, 2);
            BenchContext.log("scenario D, snapshot of %,d rows ...", rows);
            PipelineRun.Outcome first = PipelineRun.run(settings, ctx.timeout());
            ctx.keepLog(name + "_snapshot", first);
            if (first.exitCode() != 0 || first.summary().isEmpty()) {
                return PipelineRows.failed(SCENARIO, "snapshot before the backlog", rows, first);
            }
            BenchContext.log("scenario D, committing %,d updates ...", changes);
            long start = System.nanoTime();
            try (Connection c = source.connect()) {
                Dataset.update(c, rows, updates, TRANSACTION_ROWS);
            }
            double written = (System.nanoTime() - start) / 1e9;
            BenchContext.log("scenario D, %,d updates committed in %.1f s; catching up ...", changes, written);
            PipelineRun.Outcome second = PipelineRun.run(settings, ctx.timeout());
            ctx.keepLog(name + "_catch_up", second);
            BenchContext.dropSlot(source, settings.name());
            if (second.exitCode() != 0 || second.summary().isEmpty()) {
                return PipelineRows.failed(SCENARIO, configuration, changes, second);
            }
            return Row.ok(SCENARIO, configuration, changes, second.wallSeconds(), String.format(Locale.ROOT,
                "WAL changes (written in %.1f s while nothing ran); seconds from the launcher call (start-up"
                    + " included) to a checkpoint past the WAL end", written));
        });
    }
}
