package io.tributary.bench.pipeline;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.RoleCpu;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Re-replication: the config of a finished snapshot run with a second sync rules version, timed from the launcher
 * call to the new group's ACTIVE; the notes say how many heap tuples the run read from the source tables (it must
 * be 0: a replay reads {@code rows}, never the source). Repetitions deploy a third, fourth ... version. The row's
 * CPU is taken at the ACTIVE transition, like a snapshot row's ({@link ActiveWatch}).
 */
public final class Replay {

    private Replay() {
    }

    /**
     * Runs the replay of {@code of}'s {@code rows} topic.
     *
     * @param rules sync rules of version {@code v}; versions from 2 on are deployed
     * @param tables the SQL condition on {@code pg_stat_user_tables} selecting the source tables read
     */
    public static void run(BenchContext ctx, String scenario, PipelineRun.Settings of, PgEndpoint source, long rows,
                           RulesVersion rules, String tables, Optional<StorageCheck.Expected> expected) {
        ctx.recordFromRest(scenario, "new sync rules version, replay of " + of.name() + ".rows", attempt -> {
            Path file = ctx.rulesFile(of.name() + "-v" + (attempt + 2), rules.of(attempt + 2));
            PipelineRun.Settings replay = new PipelineRun.Settings(of.name(), of.kafka(), of.sourceUrl(),
                of.storageUrl(), of.user(), file, of.workersPerProcess(), of.chunkRows());
            long readBefore = tuplesRead(source, tables);
            BenchContext.log("%s of %s ...", scenario, of.name());
            long deployed = Checked.newestGroup(replay.storage());
            CpuUse before = ctx.cpu().total();
            PipelineRun.Outcome outcome;
            Optional<ActiveWatch.Reading> active;
            try (RoleCpu roles = RoleCpu.start();
                 ActiveWatch watch = ActiveWatch.start(replay.storage(), deployed, ctx.cpu(), roles)) {
                outcome = PipelineRun.run(replay, ctx.timeout());
                active = watch.reading();
            }
            long sourceRead = tuplesRead(source, tables) - readBefore;
            ctx.keepLog(of.name() + "_replay" + (attempt == 0 ? "" : "_r" + attempt), outcome);
            Row row = PipelineRows.toActive(scenario, "new sync rules version, replay of " + of.name() + ".rows",
                rows, outcome, replay);
            row = row.withNotePrefix("source tuples read: " + sourceRead);
            if (expected.isPresent()) {
                row = Checked.row(row, source, expected.get().withDefinition(Dataset.definition(attempt + 2)),
                    replay.storage());
            }
            return active.map(r -> r.total().since(before)).map(row::withCpu).orElse(row);
        });
    }

    /** Sync rules text per version. */
    @FunctionalInterface
    public interface RulesVersion {
        String of(int version);
    }

    /** Heap tuples read from the tables so far (sequential and index fetches), as the statistics show. */
    private static long tuplesRead(PgEndpoint source, String tables) throws SQLException {
        LockSupport.parkNanos(Duration.ofMillis(1500).toNanos());
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(coalesce(seq_tup_read, 0)"
                 + " + coalesce(idx_tup_fetch, 0)), 0) FROM pg_stat_user_tables WHERE " + tables)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
