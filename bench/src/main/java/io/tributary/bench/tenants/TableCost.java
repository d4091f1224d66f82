package io.tributary.bench.tenants;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.bench.probe.RoleCpu;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The fixed CPU per table of scenario M: for each shape after the first, the difference of its run's CPU and the
 * first shape's (same total rows), divided by the difference of their table counts, in milliseconds per table,
 * summed over every role and both Postgres servers (the JIT excluded), and split by role in the notes. A shape
 * whose run did not complete gets no row.
 */
final class TableCost {

    private static final String SCENARIO = "M fixed CPU per table";

    private TableCost() {
    }

    /**
     * The CPU milliseconds per table of {@code shape}'s run over {@code base}'s (every role but the JIT and both
     * Postgres servers): the difference of the runs' CPU over the difference of their table counts.
     *
     * @throws IllegalArgumentException if the shapes have as many tables
     */
    static double millisPerTable(MultiTenant.Shape base, SnapshotSeries.RunCpu baseCpu, MultiTenant.Shape shape,
                                 SnapshotSeries.RunCpu cpu) {
        int extraTables = shape.tableCount() - base.tableCount();
        if (extraTables == 0) {
            throw new IllegalArgumentException(shape.describe() + " and " + base.describe() + " have as many tables");
        }
        return (cpu.totalWithoutJit() - baseCpu.totalWithoutJit()) * 1e3 / extraTables;
    }

    static void record(BenchContext ctx, List<MultiTenant.Shape> shapes, Map<MultiTenant.Shape,
        SnapshotSeries.RunCpu> runs, int workers) {
        if (shapes.size() < 2 || !runs.containsKey(shapes.get(0))) {
            return;
        }
        MultiTenant.Shape base = shapes.get(0);
        SnapshotSeries.RunCpu baseCpu = runs.get(base);
        for (MultiTenant.Shape shape : shapes.subList(1, shapes.size())) {
            SnapshotSeries.RunCpu cpu = runs.get(shape);
            int extraTables = shape.tableCount() - base.tableCount();
            if (cpu == null || extraTables == 0) {
                continue;
            }
            double perTable = 1e3 / extraTables;
            double total = millisPerTable(base, baseCpu, shape, cpu);
            String byRole = cpu.roles().entrySet().stream()
                .filter(e -> e.getKey() != RoleCpu.Role.JIT)
                .sorted(Map.Entry.comparingByKey())
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey().label(),
                    (e.getValue() - baseCpu.roles().getOrDefault(e.getKey(), 0.0)) * perTable))
                .collect(Collectors.joining(", "));
            String notes = String.format(Locale.ROOT, "%.2f ms of CPU per table (%s vs %s tables, workers_per_process"
                    + " %d); ms per table by role: %s, source Postgres %.2f, storage Postgres %.2f", total,
                shape.describe(), base.describe(), workers, byRole,
                (cpu.sourcePostgres() - baseCpu.sourcePostgres()) * perTable,
                (cpu.storagePostgres() - baseCpu.storagePostgres()) * perTable);
            BenchContext.log("%s: %s", SCENARIO, notes);
            ctx.table().add(Row.ok(SCENARIO, shape.describe() + " against " + base.describe(), 0, 0, notes));
        }
    }
}
