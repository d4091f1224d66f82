package io.tributary.bench.pipeline;

import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The row of an {@code --until-caught-up} pipeline run: seconds from the launcher call to the newest group's
 * ACTIVE transition (its first complete checkpoint, as storage recorded it), with the time to caught-up and the
 * launcher's own figure in the notes; a run that failed or timed out is a FAILED / TIMEOUT row with the launcher's
 * last lines.
 */
public final class PipelineRows {

    private PipelineRows() {
    }

    private static final Pattern ALL_READ = Pattern.compile("^\\[\\s*(\\d+)s\\] snapshot (\\d+)/(\\d+) tables");

    /**
     * The launcher's seconds at its first progress line reporting every table's chunks read ({@code [ 27s] snapshot
     * 1/1 tables, ...}), if it printed one: when the source reads ended, before the merge and the writers caught up.
     */
    public static Optional<Long> snapshotReadSeconds(String launcherOutput) {
        return launcherOutput.lines().map(ALL_READ::matcher).filter(Matcher::find)
            .filter(m -> m.group(2).equals(m.group(3))).map(m -> Long.parseLong(m.group(1))).findFirst();
    }

    /** The row of {@code outcome}, counting {@code rows}. */
    public static Row toActive(String scenario, String configuration, long rows, PipelineRun.Outcome outcome,
                               PipelineRun.Settings settings) throws SQLException {
        Optional<Long> activeAt = activeAtMillis(settings.storageUrl(), settings.user());
        if (outcome.exitCode() == 0 && outcome.summary().isPresent() && activeAt.isPresent()) {
            double seconds = (activeAt.get() - outcome.startedAtMillis()) / 1000.0;
            return Row.ok(scenario, configuration, rows, seconds, String.format(Locale.ROOT,
                "caught up (checkpoint past the WAL end) at %.1f s; %s", outcome.wallSeconds(),
                launcherNote(outcome)));
        }
        return failed(scenario, configuration, rows, outcome);
    }

    /** The FAILED / TIMEOUT row of a run that did not catch up. */
    public static Row failed(String scenario, String configuration, long rows, PipelineRun.Outcome outcome) {
        String what = outcome.exitCode() == -1 ? "TIMEOUT" : "FAILED (exit " + outcome.exitCode() + ")";
        BenchContext.log("%s %s: %s%n%s", scenario, what, configuration, outcome.tail());
        return Row.failed(scenario, configuration, rows, outcome.wallSeconds(), what + ": " + outcome.tail());
    }

    private static String launcherNote(PipelineRun.Outcome outcome) {
        return outcome.launcherSeconds().map(s -> String.format(Locale.ROOT,
            "launcher's own clock (after start-up): %.1f s = %,.0f rows/s", s,
            outcome.rowsSnapshotted().orElse(0L) / s))
            .orElse("no launcher summary");
    }

    /** When the newest sync rules group became ACTIVE, in epoch milliseconds of the (local) storage server. */
    private static Optional<Long> activeAtMillis(String storageUrl, String user) throws SQLException {
        try (Connection c = new PgEndpoint(storageUrl, user, "").connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT state, (extract(epoch FROM state_changed_at) * 1000)::bigint"
                 + " FROM tributary.sync_rules ORDER BY group_id DESC LIMIT 1")) {
            if (rs.next() && "ACTIVE".equals(rs.getString(1))) {
                return Optional.of(rs.getLong(2));
            }
            return Optional.empty();
        }
    }
}
