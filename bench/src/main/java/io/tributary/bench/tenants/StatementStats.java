package io.tributary.bench.tenants;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.postgres.PgEndpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The statements both Postgres servers ran during one M run, from {@code pg_stat_statements} (only when the bench
 * started its servers with it preloaded, {@code --pg-statements}): reset before the run, and after it the top
 * statements by time (planning and execution) with their calls, written next to the result file as
 * {@code <started>-statements-<name>.md}. The storage server's rows include the bench's own check of storage after
 * the run.
 */
final class StatementStats {

    private static final int TOP = 40;
    private static final String TOP_STATEMENTS = "SELECT s.calls, s.total_exec_time + s.total_plan_time, s.rows,"
        + " left(regexp_replace(s.query, '\\s+', ' ', 'g'), 220) FROM pg_stat_statements s"
        + " ORDER BY 2 DESC LIMIT " + TOP;
    private static final String TOTAL = "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time"
        + " + total_plan_time), 0) FROM pg_stat_statements";

    private StatementStats() {
    }

    /** Whether both servers track statements. */
    static boolean enabled(BenchContext ctx) throws SQLException {
        return tracks(ctx.database("postgres")) && tracks(ctx.storageDatabase("postgres"));
    }

    /** Forgets what both servers counted so far. */
    static void reset(BenchContext ctx) throws SQLException {
        for (PgEndpoint server : new PgEndpoint[] {ctx.database("postgres"), ctx.storageDatabase("postgres")}) {
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
                s.execute("SELECT pg_stat_statements_reset()");
            }
        }
    }

    /** Writes both servers' top statements since {@link #reset}, per {@code tables} tables of the run. */
    static Path write(BenchContext ctx, String name, int tables) throws SQLException, IOException {
        StringBuilder out = new StringBuilder();
        out.append("# Statements of ").append(name).append(" (").append(tables).append(" tables)\n\n");
        section(out, "source", ctx.database("postgres"), tables);
        section(out, "storage", ctx.storageDatabase("postgres"), tables);
        Path file = ctx.logFile("statements-" + name).resolveSibling(ctx.started() + "-statements-" + name + ".md");
        Files.writeString(file, out, StandardCharsets.UTF_8);
        BenchContext.log("statements written to %s", file);
        return file;
    }

    private static void section(StringBuilder out, String server, PgEndpoint endpoint, int tables)
            throws SQLException {
        try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery(TOTAL)) {
                rs.next();
                out.append(String.format(Locale.ROOT, "## %s: %,d calls, %.0f ms (%.3f ms and %.1f calls per"
                    + " table)%n%n", server, rs.getLong(1), rs.getDouble(2), rs.getDouble(2) / tables,
                    rs.getLong(1) / (double) tables));
            }
            out.append("| calls | per table | ms | ms per table | rows | statement |\n");
            out.append("| ---: | ---: | ---: | ---: | ---: | --- |\n");
            try (ResultSet rs = s.executeQuery(TOP_STATEMENTS)) {
                while (rs.next()) {
                    out.append(String.format(Locale.ROOT, "| %,d | %.2f | %.0f | %.4f | %,d | `%s` |%n",
                        rs.getLong(1), rs.getLong(1) / (double) tables, rs.getDouble(2), rs.getDouble(2) / tables,
                        rs.getLong(3), rs.getString(4).replace("|", "\\|").replace("`", "'")));
                }
            }
            out.append('\n');
        }
    }

    private static boolean tracks(PgEndpoint endpoint) throws SQLException {
        try (Connection c = endpoint.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW shared_preload_libraries")) {
            return rs.next() && rs.getString(1).contains("pg_stat_statements");
        }
    }
}
