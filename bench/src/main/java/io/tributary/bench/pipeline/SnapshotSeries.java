package io.tributary.bench.pipeline;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.BrokerRequests;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.RoleCpu;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Snapshot to first checkpoint, one row per {@code replication.workers_per_process} value: each run (and each
 * repetition) has its own storage database, topic prefix, slot and publication; a completed row notes
 * microseconds per row. The slot of every run but the last is dropped; the last run's settings are returned so a
 * replay can reuse its {@code rows} topic (drop its slot with {@link BenchContext#dropSlot} afterwards). A row's CPU,
 * its CPU by role and the broker's requests are taken over its seconds' window, up to the group's ACTIVE transition
 * ({@link ActiveWatch}); only a run that never got there reports the CPU of the whole measurement.
 */
public final class SnapshotSeries {

    /**
     * What to snapshot: the source as the pipeline reaches it, the same database directly, rules and row count, and
     * what storage must hold afterwards (checked before the row counts; empty: not checked).
     */
    public record Source(String sourceUrl, PgEndpoint direct, Path rules, long rows,
                         Optional<StorageCheck.Expected> expected) {

        /** A source whose storage is not checked. */
        public Source(String sourceUrl, PgEndpoint direct, Path rules, long rows) {
            this(sourceUrl, direct, rules, rows, Optional.empty());
        }
    }

    /**
     * The CPU seconds a completed run used over its launcher call (the storage check excluded): the bench JVM's by
     * role, and the source and storage Postgres servers'.
     */
    public record RunCpu(Map<RoleCpu.Role, Double> roles, double sourcePostgres, double storagePostgres) {
        public RunCpu {
            roles = Map.copyOf(roles);
        }

        /** Every role's seconds but the JIT's, and both Postgres servers'. */
        public double totalWithoutJit() {
            return roles.entrySet().stream().filter(e -> e.getKey() != RoleCpu.Role.JIT)
                .mapToDouble(Map.Entry::getValue).sum() + sourcePostgres + storagePostgres;
        }
    }

    private SnapshotSeries() {
    }

    /** As {@link #run(BenchContext, String, String, String, Source, List, Consumer)}, reporting no CPU. */
    public static Optional<PipelineRun.Settings> run(BenchContext ctx, String scenario, String what, String name,
                                                     Source source, List<Integer> workers) {
        return run(ctx, scenario, what, name, source, workers, cpu -> { });
    }

    /**
     * Runs the series.
     *
     * @param scenario the rows' scenario column
     * @param what the configuration column before {@code ", workers_per_process <w>"}
     * @param name the prefix of every run's name ({@code <name>_w<w>[_r<attempt>]})
     * @param cpu told the CPU of every run that completed and passed its storage check
     */
    public static Optional<PipelineRun.Settings> run(BenchContext ctx, String scenario, String what, String name,
                                                     Source source, List<Integer> workers, Consumer<RunCpu> cpu) {
        PipelineRun.Settings[] last = new PipelineRun.Settings[1];
        for (int w : workers) {
            String configuration = what + ", workers_per_process " + w;
            ctx.recordFromRest(scenario, configuration, attempt -> {
                String runName = name + "_w" + w + (attempt == 0 ? "" : "_r" + attempt);
                PipelineRun.Settings settings = ctx.pipeline(runName, source.sourceUrl(), source.rules(), w);
                BenchContext.log("%s: %s ...", scenario, configuration);
                CpuUse totalBefore = ctx.cpu().total();
                List<Double> serversBefore = ctx.cpu().serverSeconds();
                Map<String, Long> requestsBefore = BrokerRequests.counts();
                RoleCpu roles = RoleCpu.start();
                PipelineRun.Outcome outcome;
                Optional<ActiveWatch.Reading> active;
                try (ActiveWatch watch = ActiveWatch.start(settings.storage(), 0, ctx.cpu(), roles)) {
                    outcome = PipelineRun.run(settings, ctx.timeout());
                    active = watch.reading();
                }
                Map<RoleCpu.Role, Double> byRole = active.map(ActiveWatch.Reading::roles).orElseGet(roles::stop);
                roles.close();
                List<Double> serversAfter = active.map(ActiveWatch.Reading::serverSeconds)
                    .orElseGet(() -> ctx.cpu().serverSeconds());
                ctx.keepLog(runName, outcome);
                if (last[0] != null) {
                    BenchContext.dropSlot(source.direct(), last[0].name());
                }
                last[0] = settings;
                Row row = PipelineRows.toActive(scenario, configuration, source.rows(), outcome, settings);
                if (source.expected().isPresent()) {
                    row = Checked.row(row, source.direct(), source.expected().get(), settings.storage());
                }
                long n = Math.max(1, source.rows());
                Optional<CpuUse> toActive = active.map(r -> r.total().since(totalBefore));
                double outsideRoles = toActive.map(used -> used.jvmSeconds() - used.jitSeconds()
                    - byRole.values().stream().mapToDouble(Double::doubleValue).sum()).orElse(0.0);
                String perRole = String.format(Locale.ROOT, "CPU us/row by role: %s, GC and JVM threads %.1f, source"
                    + " Postgres %.1f, storage Postgres %.1f", RoleCpu.perRow(byRole, n), outsideRoles * 1e6 / n,
                    (serversAfter.get(0) - serversBefore.get(0)) * 1e6 / n,
                    (serversAfter.get(1) - serversBefore.get(1)) * 1e6 / n);
                perRole += active.map(r -> "; broker requests per 1,000 rows: " + BrokerRequests.perThousandRows(
                    BrokerRequests.since(requestsBefore, r.brokerRequests()), n, 12)).orElse("");
                perRole += toActive.isPresent() ? "; CPU from the launcher call to ACTIVE" : "; CPU of the whole run";
                BenchContext.log("%s: %s", scenario, perRole);
                if (row.isOk()) {
                    cpu.accept(new RunCpu(byRole, serversAfter.get(0) - serversBefore.get(0),
                        serversAfter.get(1) - serversBefore.get(1)));
                }
                perRole = PipelineRows.snapshotReadSeconds(outcome.output())
                    .map(t -> String.format(Locale.ROOT, "chunks all read at %d s (launcher's clock); ", t))
                    .orElse("") + perRole;
                if (toActive.isPresent()) {
                    row = row.withCpu(toActive.get());
                }
                return row.isOk() ? row.withNotePrefix(String.format(Locale.ROOT, "%.1f us/row; %s",
                    row.seconds() * 1e6 / n, perRole)) : row;
            });
        }
        return Optional.ofNullable(last[0]);
    }
}
