package io.tributary.bench.classic;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenario L: snapshot to first checkpoint of a fresh {@code items} table at each size (10k, 100k, 1M rows by
 * default), one database per size dropped afterwards; the notes give microseconds per row, which should stay
 * flat if the snapshot is linear.
 */
public final class Linearity {

    private Linearity() {
    }

    /** Measures one row per size. */
    public static void run(BenchContext ctx, Path rules, List<Long> sizes) throws SQLException {
        for (long rows : sizes) {
            String database = "linear_" + rows;
            PgEndpoint source = ctx.database(database);
            try (Connection c = source.connect()) {
                Dataset.load(c, rows);
            }
            Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "L snapshot linearity",
                String.format(Locale.ROOT, "%,d rows of ~500 B, full pipeline", rows), "bench_l" + rows,
                new SnapshotSeries.Source(source.jdbcUrl(), source, rules, rows,
                    Optional.of(Dataset.expected(1))), List.of(2));
            last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
            try (Connection c = ctx.database("postgres").connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE " + database + " WITH (FORCE)");
            }
        }
    }
}
