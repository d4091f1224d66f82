package io.tributary.bench;

import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.postgres.PgEndpoint;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/**
 * Scenario D, the classic dataset: {@code rows} rows each updated {@code updates} times. A first run snapshots the
 * fresh table and stops (its slot stays); the updates are then committed (1,000-row transactions) while nothing
 * runs; a second run streams the backlog and is timed until the launcher reports a checkpoint past the WAL end.
 */
final class StreamingCatchUp {

    /** Keeps a run's launcher output. */
    interface LogKeeper {
        void keep(String name, PipelineRun.Outcome outcome) throws IOException;
    }

    private static final int TRANSACTION_ROWS = 1_000;

    private StreamingCatchUp() {
    }

    static void run(EmbeddedPostgres postgres, String kafka, Path rules, int rows, int updates, Duration timeout,
                    ResultTable table, LogKeeper logs) throws Exception {
        postgres.createDatabase("hot");
        postgres.createDatabase("storage_bench_d");
        PgEndpoint source = new PgEndpoint(postgres.jdbcUrl("hot"), postgres.superuser(), "");
        try (Connection c = source.connect()) {
            Dataset.load(c, rows);
        }
        PipelineRun.Settings settings = new PipelineRun.Settings("bench_d", kafka, postgres.jdbcUrl("hot"),
            postgres.jdbcUrl("storage_bench_d"), postgres.superuser(), rules, 2);
        Bench.log("scenario D, snapshot of %,d rows ...", rows);
        PipelineRun.Outcome first = PipelineRun.run(settings, timeout);
        logs.keep("bench_d_snapshot", first);
        if (first.exitCode() != 0 || first.summary().isEmpty()) {
            table.add(Row.failed("D streaming catch-up", "snapshot before the backlog", rows, first.wallSeconds(),
                "FAILED (exit " + first.exitCode() + "): " + first.tail()));
            return;
        }
        long changes = (long) rows * updates;
        Bench.log("scenario D, committing %,d updates ...", changes);
        long start = System.nanoTime();
        update(source, rows, updates);
        Bench.log("scenario D, %,d updates committed in %.1f s; catching up ...", changes,
            (System.nanoTime() - start) / 1e9);
        PipelineRun.Outcome second = PipelineRun.run(settings, timeout);
        logs.keep("bench_d_catch_up", second);
        Bench.dropSlot(source, settings.name());
        String configuration = String.format(Locale.ROOT, "%,d rows x %d updates, 1k-row transactions,"
            + " workers_per_process 2", rows, updates);
        if (second.exitCode() == 0 && second.summary().isPresent()) {
            table.add(Row.ok("D streaming catch-up to checkpoint", configuration, changes, second.wallSeconds(),
                "WAL changes; seconds from the launcher call (start-up included) to a checkpoint past the WAL end"));
        } else {
            String what = second.exitCode() == -1 ? "TIMEOUT" : "FAILED (exit " + second.exitCode() + ")";
            table.add(Row.failed("D streaming catch-up to checkpoint", configuration, changes, second.wallSeconds(),
                what + ": " + second.tail()));
        }
    }

    private static void update(PgEndpoint source, int rows, int updates) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            for (int round = 0; round < updates; round++) {
                for (int first = 1; first <= rows; first += TRANSACTION_ROWS) {
                    s.executeUpdate("UPDATE public.items SET n = n + 1 WHERE id BETWEEN " + first + " AND "
                        + (first + TRANSACTION_ROWS - 1));
                }
            }
        }
    }
}
