package io.tributary.bench.direct;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Baselines;
import io.tributary.bench.pipeline.Checked;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.messages.TableId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The direct path ({@link DirectPath}) per thread count, one row each on a fresh storage database, its storage
 * checked against the source; each row's note gives the ratio of the pipeline row of the same thread count
 * ({@code workers_per_process}) measured earlier in the same run, when there is one.
 */
public final class DirectSeries {

    private DirectSeries() {
    }

    /**
     * Runs the series.
     *
     * @param scenario   the rows' scenario column
     * @param what       the configuration column before {@code ", <n> threads"}
     * @param name       the prefix of each storage database's name
     * @param reachable  the source as the path reaches it (directly or through a proxy)
     * @param direct     the same source directly, for the storage check
     * @param pipeline   the scenario column of the pipeline rows to compare with
     */
    public static void run(BenchContext ctx, String scenario, String what, String name, PgEndpoint reachable,
                           PgEndpoint direct, List<Integer> threads, String pipeline) {
        StorageCheck.Expected expected = Dataset.expected(1);
        for (int n : threads) {
            String configuration = what + ", " + n + (n == 1 ? " thread" : " threads");
            ctx.recordFromRest(scenario, configuration, attempt -> {
                BenchContext.log("%s: %s ...", scenario, configuration);
                PgEndpoint storage = ctx.storageDatabase(name + "_t" + n + (attempt == 0 ? "" : "_r" + attempt));
                Baselines.Measured measured = DirectPath.run(new DirectPath.Settings(reachable, storage,
                    TableId.of("public", "items"), Dataset.syncRules(1), n, ctx.chunkRows(), 5_000), ctx.cpu());
                Row row = Checked.row(Baselines.ok(scenario, configuration, measured,
                    "source to bucket_data and current_data, no Kafka"), direct, expected, storage);
                return ratio(ctx, pipeline, n, row).map(row::withNotePrefix).orElse(row);
            });
        }
    }

    /** "pipeline / direct = 0.42x" for the pipeline row of {@code workers}, if both have a rate. */
    static Optional<String> ratio(BenchContext ctx, String pipeline, int workers, Row direct) {
        return ctx.table().rows().stream()
            .filter(r -> r.scenario().equals(pipeline) && r.configuration().endsWith("workers_per_process " + workers))
            .reduce((a, b) -> b)
            .flatMap(r -> r.rate().flatMap(p -> direct.rate().map(d -> String.format(Locale.ROOT,
                "pipeline (%s) / direct at %d: %.2fx", pipeline.substring(0, pipeline.indexOf(' ')), workers,
                p / d))));
    }
}
