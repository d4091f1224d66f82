package io.tributary.bench.tenants;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Scenario M, the multi-tenant database: {@code schemas} schemas ({@code tenant_001 ...}) of {@code tables} tables
 * ({@code t1 ...}) each, the same ~500 B rows as {@code items} and the same total row count, in a database of its
 * own per shape ({@code tenants_<schemas>x<tables>}); one wildcard sync rule ({@code "tenant_%"."t%"}) covers them
 * all. Snapshot to first checkpoint per shape and workers value. With several shapes, a last row per further shape
 * gives the fixed CPU per table: the difference of the runs' CPU (every role and both Postgres servers, the JIT
 * excluded, over the launcher call) against the first shape's, divided by the difference of their table counts;
 * the rows are the same, so what is left is what the tables cost.
 */
public final class MultiTenant {

    /** The shape: schemas x tables, and the total rows spread evenly (at least one per table). */
    public record Shape(int schemas, int tables, long totalRows) {
        public Shape {
            if (schemas < 1 || schemas > 9999 || tables < 1 || totalRows < (long) schemas * tables) {
                throw new IllegalArgumentException("need 1-9999 schemas, >= 1 table, >= 1 row per table: "
                    + schemas + " x " + tables + ", " + totalRows + " rows");
            }
        }

        /** Tables of all schemas together. */
        public int tableCount() {
            return schemas * tables;
        }

        /** The name of schema {@code n} (1-based): {@code tenant_} and at least three digits. */
        public String schemaName(int n) {
            return String.format(Locale.ROOT, "tenant_%0" + Math.max(3, Integer.toString(schemas).length()) + "d", n);
        }

        /** {@code 200 x 5}. */
        String describe() {
            return schemas + " x " + tables;
        }

        /** Rows of each table. */
        public long rowsPerTable() {
            return totalRows / ((long) schemas * tables);
        }

        /** Rows of all tables together (the total rounded down to a multiple of the table count). */
        public long rows() {
            return rowsPerTable() * schemas * tables;
        }
    }

    private MultiTenant() {
    }

    /** The database of {@code shape}'s tables. */
    public static PgEndpoint database(BenchContext ctx, Shape shape) {
        return ctx.database("tenants_" + shape.schemas() + "x" + shape.tables());
    }

    /**
     * Loads each shape's database and measures one row per shape and workers value, then the fixed CPU per table of
     * every further shape against the first (for the first workers value).
     */
    public static void run(BenchContext ctx, List<Shape> shapes, List<Integer> workers) throws Exception {
        Map<Shape, SnapshotSeries.RunCpu> firstRuns = new LinkedHashMap<>();
        boolean statements = StatementStats.enabled(ctx);
        for (Shape shape : shapes) {
            PgEndpoint source = database(ctx, shape);
            long start = System.nanoTime();
            load(source, shape);
            BenchContext.log("loaded %s tables, %,d rows in %.1f s", shape.describe(), shape.rows(),
                (System.nanoTime() - start) / 1e9);
            if (statements) {
                StatementStats.reset(ctx);
            }
            Optional<PipelineRun.Settings> last = SnapshotSeries.run(ctx, "M multi-tenant snapshot to first checkpoint",
                String.format(Locale.ROOT, "%d schemas x %d tables of %,d rows, full pipeline", shape.schemas(),
                    shape.tables(), shape.rowsPerTable()), "bench_m_" + shape.schemas() + "x" + shape.tables(),
                new SnapshotSeries.Source(source.jdbcUrl(), source, ctx.rulesFile("rules-tenants", rules()),
                    shape.rows(), Optional.of(expected(shape))), workers, cpu -> firstRuns.putIfAbsent(shape, cpu));
            if (statements) {
                StatementStats.write(ctx, shape.schemas() + "x" + shape.tables(), shape.tableCount());
            }
            last.ifPresent(settings -> BenchContext.dropSlot(source, settings.name()));
        }
        TableCost.record(ctx, shapes, firstRuns, workers.get(0));
    }

    /** What storage holds after a snapshot of every tenant table. */
    static StorageCheck.Expected expected(Shape shape) {
        List<StorageCheck.Table> tables = new ArrayList<>();
        for (int schema = 1; schema <= shape.schemas(); schema++) {
            for (int table = 1; table <= shape.tables(); table++) {
                tables.add(new StorageCheck.Table(shape.schemaName(schema) + ".t" + table, "t" + table));
            }
        }
        return new StorageCheck.Expected(tables, "by_owner");
    }

    /** Sync rules over every tenant table: one bucket per owner. */
    public static String rules() {
        return String.join("\n",
            "bucket_definitions:",
            "  by_owner:",
            "    parameters: SELECT request.user_id() AS owner",
            "    data:",
            "      - SELECT * FROM \"tenant_%\".\"t%\" WHERE owner = bucket.owner",
            "");
    }

    /** The Postgres regex of the tenant tables' qualified names, as Debezium's {@code table.include.list}. */
    public static String includeList() {
        return "tenant_[0-9]+\\.t[0-9]+";
    }

    private static void load(PgEndpoint source, Shape shape) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            for (int schema = 1; schema <= shape.schemas(); schema++) {
                String name = shape.schemaName(schema);
                s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
                s.execute("CREATE SCHEMA " + name);
                for (int table = 1; table <= shape.tables(); table++) {
                    String qualified = name + ".t" + table;
                    s.execute("CREATE TABLE " + qualified + " (id bigint PRIMARY KEY, owner text NOT NULL,"
                        + " title text NOT NULL, body text NOT NULL, n int NOT NULL, updated_at timestamptz NOT NULL)");
                    s.execute("INSERT INTO " + qualified + " SELECT g, 'u' || (g % 1000), 'item number ' || g,"
                        + " repeat(md5(g::text), 13), g % 100, timestamptz '2026-01-01 00:00:00+00' + g * interval"
                        + " '1 s' FROM generate_series(1, " + shape.rowsPerTable() + ") g");
                }
            }
            s.execute("VACUUM ANALYZE");
        }
    }
}
