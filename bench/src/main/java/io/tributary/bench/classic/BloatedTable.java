package io.tributary.bench.classic;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.Replay;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenario E, the classic dataset as a fresh group finds it: {@code rows} rows each updated {@code updates} times
 * (autovacuum off for the table, so the dead tuples stay), then (E1) a fresh pipeline's snapshot to its first
 * complete checkpoint and (E2) the re-replication of a new sync rules version by replay of that run's
 * {@code rows} topic.
 */
public final class BloatedTable {

    private BloatedTable() {
    }

    /** Loads the bloated table in database {@code bloated}, measures E1 and, if {@code replay}, E2. */
    public static void run(BenchContext ctx, Path rules, int rows, int updates, boolean replay) throws SQLException {
        PgEndpoint source = ctx.database("bloated");
        long start = System.nanoTime();
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            Dataset.load(c, rows);
            s.execute("ALTER TABLE " + Dataset.TABLE + " SET (autovacuum_enabled = false)");
            Dataset.update(c, rows, updates, StreamingCatchUp.TRANSACTION_ROWS);
        }
        String shape = shape(source);
        BenchContext.log("bloated table ready in %.1f s: %s", (System.nanoTime() - start) / 1e9, shape);
        String what = String.format(Locale.ROOT, "%,d rows x %d updates (%s), full pipeline", rows, updates, shape);
        Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "E1 bloated table: snapshot to first"
            + " checkpoint", what, "bench_e", new SnapshotSeries.Source(source.jdbcUrl(), source, rules, rows),
            List.of(2));
        if (replay && last.isPresent()) {
            Replay.run(ctx, "E2 bloated table: re-replication to ACTIVE", last.get(), source, rows,
                Dataset::syncRules, "relid = '" + Dataset.TABLE + "'::regclass", Optional.empty());
        }
        last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
    }

    private static String shape(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT n_dead_tup, pg_size_pretty(pg_table_size(relid))"
                 + " FROM pg_stat_user_tables WHERE relid = '" + Dataset.TABLE + "'::regclass")) {
            rs.next();
            return String.format(Locale.ROOT, "%,d dead tuples, %s", rs.getLong(1), rs.getString(2));
        }
    }
}
