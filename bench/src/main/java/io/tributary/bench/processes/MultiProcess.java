package io.tributary.bench.processes;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.model.CapacityModel;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Checked;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.RoleCpu;
import io.tributary.launcher.Main;
import io.tributary.postgres.PgEndpoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Scenario P, the roles as separate processes: the Docker Compose topology on one box. Each role runs in a JVM of
 * its own ({@code tributary run --role ingest}, {@code replication:snapshot}, {@code replication:streaming},
 * {@code storage}, {@code api}) on the bench's embedded Kafka broker and its two Postgres servers. Once every
 * process reports {@code /health/ready}, the sync rules are deployed ({@code tributary deploy}) and the clock runs
 * from the deploy to the group's ACTIVE transition (its first checkpoint, as storage recorded it); the storage is
 * then checked against the source. Start-up is outside the clock and the CPU window alike.
 *
 * <p>Each process's CPU over that window comes from {@code /proc} (its JIT compiler threads apart), the broker's
 * from its threads in the bench JVM ({@link RoleCpu}), each Postgres server's from its processes. Those figures
 * per row feed the {@link CapacityModel} (every role but the api, which serves clients, not the snapshot): the
 * row's notes give the rate the model predicts for the box's cores against the achieved rate, and the plan for
 * 100M rows in one hour is written beside the result file ({@code <started>-<run>-model.md}).
 */
public final class MultiProcess {

    /** The roles, in start order, and the model's name for each. */
    private static final Map<String, String> ROLES = roles();
    private static final String SCENARIO = "P roles as processes: snapshot to first checkpoint";
    private static final Duration POLL = Duration.ofMillis(200);
    /** A development key for the api role, which refuses to start without one (no client connects in P). */
    private static final String BENCH_KEYS = "[{\"kty\":\"oct\",\"kid\":\"bench\",\"alg\":\"HS256\","
        + "\"k\":\"YmVuY2gtb25seS1rZXktMDEyMzQ1Njc4OWFiY2RlZmdo\"}]";
    /** The model's plan: 100M rows in one hour, on 4-core processes planned at 70% of their cores. */
    private static final long PLAN_ROWS = 100_000_000L;
    private static final double PLAN_SECONDS = 3_600;
    private static final int PLAN_CORES_PER_PROCESS = 4;
    private static final double PLAN_UTILISATION = 0.7;

    private MultiProcess() {
    }

    private static Map<String, String> roles() {
        Map<String, String> roles = new LinkedHashMap<>();
        roles.put("ingest", "ingest/planner");
        roles.put("replication:snapshot", "snapshot-workers");
        roles.put("replication:streaming", "stream-workers");
        roles.put("storage", "storage-writer");
        roles.put("api", "api");
        return roles;
    }

    /**
     * Measures one row per workers value ({@code replication.workers_per_process} of every process) on
     * {@code source}'s rows, with {@code javaOptions} for each role's JVM.
     */
    public static void run(BenchContext ctx, PgEndpoint source, Path rules, long rows, StorageCheck.Expected expected,
                           List<Integer> workers, String javaOptions) {
        for (int w : workers) {
            String configuration = String.format(Locale.ROOT, "%s as %d JVMs, workers_per_process %d, JVM options"
                + " '%s'", String.join(", ", ROLES.keySet()), ROLES.size(), w, javaOptions);
            ctx.recordFromRest(SCENARIO, configuration, attempt -> {
                String name = "bench_p_w" + w + (attempt == 0 ? "" : "_r" + attempt);
                PipelineRun.Settings settings = ctx.pipeline(name, source.jdbcUrl(), rules, w);
                BenchContext.log("%s: %s ...", SCENARIO, configuration);
                try {
                    return measure(ctx, settings, source, rules, rows, expected, configuration, javaOptions);
                } finally {
                    BenchContext.dropSlot(source, name);
                }
            });
        }
    }

    private static Row measure(BenchContext ctx, PipelineRun.Settings settings, PgEndpoint source, Path rules,
                               long rows, StorageCheck.Expected expected, String configuration, String javaOptions)
        throws Exception {
        Path config = writeConfig(settings);
        List<RoleProcess> processes = new ArrayList<>();
        try {
            for (String role : ROLES.keySet()) {
                Map<String, String> environment = Map.of("TRIBUTARY_API_PORT", Integer.toString(freePort()),
                    "TRIBUTARY_CLIENT_AUTH_JWKS_KEYS", BENCH_KEYS);
                processes.add(RoleProcess.start(role, config, freePort(), environment, javaOptions,
                    ctx.logFile(settings.name() + "-" + role.replace(':', '-'))));
            }
            Optional<String> notReady = awaitReady(processes, ctx.timeout());
            if (notReady.isPresent()) {
                return Row.failed(SCENARIO, configuration, rows, 0, "FAILED: " + notReady.get());
            }
            Map<String, CpuUse> before = new LinkedHashMap<>();
            processes.forEach(p -> before.put(p.role(), p.cpu()));
            List<Double> serversBefore = ctx.cpu().serverSeconds();
            RoleCpu broker = RoleCpu.start();
            long deployedAt = System.currentTimeMillis();
            deploy(config, rules);
            Optional<Long> activeAt = awaitActive(settings.storage(), processes, deployedAt, ctx.timeout());
            Map<RoleCpu.Role, Double> bench = broker.stop();
            List<Double> serversAfter = ctx.cpu().serverSeconds();
            Map<String, CpuUse> used = new LinkedHashMap<>();
            processes.forEach(p -> used.put(p.role(), p.cpu().since(before.get(p.role()))));
            if (activeAt.isEmpty()) {
                double seconds = (System.currentTimeMillis() - deployedAt) / 1e3;
                String dead = processes.stream().filter(p -> !p.alive()).map(RoleProcess::role).toList().toString();
                return Row.failed(SCENARIO, configuration, rows, seconds, "TIMEOUT or FAILED: no ACTIVE group;"
                    + " processes ended: " + dead + "; logs " + processes.get(0).log().getParent());
            }
            double seconds = (activeAt.get() - deployedAt) / 1e3;
            Measured measured = new Measured(rows, seconds, used, bench.getOrDefault(RoleCpu.Role.BROKER, 0.0),
                serversAfter.get(0) - serversBefore.get(0), serversAfter.get(1) - serversBefore.get(1));
            Files.writeString(ctx.logFile(settings.name() + "-model").resolveSibling(ctx.started() + "-"
                + settings.name() + "-model.md"), measured.modelReport());
            Row row = Row.ok(SCENARIO, configuration, rows, seconds, measured.notes())
                .withCpu(measured.total());
            return Checked.row(row, source, expected, settings.storage());
        } finally {
            for (RoleProcess process : processes) {
                process.close();
            }
        }
    }

    /** The CPU of one run by role, per row, and what the capacity model makes of it. */
    record Measured(long rows, double seconds, Map<String, CpuUse> processes, double brokerSeconds,
                    double sourcePostgresSeconds, double storagePostgresSeconds) {

        /** The model's inputs: us/row outside the JIT by role, the broker and both servers. */
        List<CapacityModel.RoleCost> costs() {
            List<CapacityModel.RoleCost> costs = new ArrayList<>();
            for (Map.Entry<String, CpuUse> process : processes.entrySet()) {
                String role = ROLES.get(process.getKey());
                if (role.equals("api")) {
                    continue; // serves clients, not the snapshot: its CPU here is what an idle api costs
                }
                boolean scales = !role.equals("ingest/planner");
                boolean partitioned = role.equals("stream-workers") || role.equals("storage-writer");
                costs.add(new CapacityModel.RoleCost(role, micros(process.getValue().jvmSeconds()
                    - process.getValue().jitSeconds()), scales, partitioned));
            }
            costs.add(new CapacityModel.RoleCost("Kafka broker", micros(brokerSeconds), true, false));
            costs.add(new CapacityModel.RoleCost("source Postgres", micros(sourcePostgresSeconds), false, false));
            costs.add(new CapacityModel.RoleCost("storage Postgres", micros(storagePostgresSeconds), false, false));
            return costs;
        }

        /** Every process's CPU (JIT included, apart), the broker's as JVM time, both servers'. */
        CpuUse total() {
            double jvm = brokerSeconds;
            double jit = 0;
            for (CpuUse use : processes.values()) {
                jvm += use.jvmSeconds();
                jit += use.jitSeconds();
            }
            return new CpuUse(jvm, jit, sourcePostgresSeconds + storagePostgresSeconds);
        }

        /** CPU us/row outside the JIT, summed over the model's roles. */
        double totalMicros() {
            return costs().stream().mapToDouble(CapacityModel.RoleCost::microsPerRow).sum();
        }

        String notes() {
            StringBuilder byRole = new StringBuilder();
            for (Map.Entry<String, CpuUse> process : processes.entrySet()) {
                CpuUse use = process.getValue();
                byRole.append(String.format(Locale.ROOT, "%s %.1f (JIT %.1f), ", ROLES.get(process.getKey()),
                    micros(use.jvmSeconds() - use.jitSeconds()), micros(use.jitSeconds())));
            }
            int cores = Runtime.getRuntime().availableProcessors();
            double total = totalMicros();
            double usedCores = total * rows / 1e6 / seconds;
            double predicted = cores * 1e6 / total;
            CapacityModel.Plan plan = plan();
            return String.format(Locale.ROOT, "CPU us/row outside the JIT by process: %sKafka broker %.1f, source"
                    + " Postgres %.1f, storage Postgres %.1f; total %.1f us/row; model: %d cores / %.1f us = %,.0f"
                    + " rows/s, achieved %,.0f (%.2fx of the model; the model's roles used %.2f cores on"
                    + " average outside the JIT); for %,d rows in %.0f s on %d-core processes at %.0f%%: %d"
                    + " partitions, first to saturate %s (%,.0f rows/s)",
                byRole, micros(brokerSeconds), micros(sourcePostgresSeconds), micros(storagePostgresSeconds), total,
                cores, total, predicted, rows / seconds, rows / seconds / predicted, usedCores, PLAN_ROWS,
                PLAN_SECONDS, PLAN_CORES_PER_PROCESS, PLAN_UTILISATION * 100, plan.partitions(),
                plan.firstToSaturate().role(), plan.firstToSaturate().ceilingRowsPerSecond());
        }

        CapacityModel.Plan plan() {
            return new CapacityModel(PLAN_CORES_PER_PROCESS, PLAN_UTILISATION).plan(PLAN_ROWS, PLAN_SECONDS,
                costs());
        }

        /** The model's table for the plan, with its inputs. */
        String modelReport() {
            CapacityModel.Plan plan = plan();
            return String.format(Locale.ROOT, "# Capacity model from a multi-process run%n%n%,d rows in %.2f s"
                    + " (%,.0f rows/s); CPU us/row outside the JIT per role process, the broker's threads and each"
                    + " Postgres server over the same window.%n%n%,d rows in %.0f s, %d-core processes at %.0f%%:"
                    + "%n%n%s%npartitions %d; first to saturate: %s (%,.0f rows/s); feasible: %s%n", rows, seconds,
                rows / seconds, PLAN_ROWS, PLAN_SECONDS, PLAN_CORES_PER_PROCESS, PLAN_UTILISATION * 100,
                plan.markdown(), plan.partitions(), plan.firstToSaturate().role(),
                plan.firstToSaturate().ceilingRowsPerSecond(), plan.feasible());
        }

        private double micros(double cpuSeconds) {
            return cpuSeconds * 1e6 / rows;
        }
    }

    private static Optional<String> awaitReady(List<RoleProcess> processes, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<RoleProcess> waiting = new ArrayList<>(processes);
        while (!waiting.isEmpty()) {
            for (RoleProcess process : List.copyOf(waiting)) {
                if (!process.alive()) {
                    return Optional.of("role " + process.role() + " ended before it was ready; see "
                        + process.log());
                }
                if (process.ready()) {
                    BenchContext.log("role %s ready", process.role());
                    waiting.remove(process);
                }
            }
            if (System.nanoTime() > deadline) {
                return Optional.of("roles " + waiting.stream().map(RoleProcess::role).toList() + " not ready within "
                    + timeout.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
        }
        return Optional.empty();
    }

    /** When the newest group became ACTIVE (storage's clock), or empty at the timeout or once a process ended. */
    private static Optional<Long> awaitActive(PgEndpoint storage, List<RoleProcess> processes, long since,
                                              Duration timeout) throws InterruptedException, SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && processes.stream().allMatch(RoleProcess::alive)) {
            try (Connection c = storage.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT state, (extract(epoch FROM state_changed_at) * 1000)::bigint"
                     + " FROM tributary.sync_rules ORDER BY group_id DESC LIMIT 1")) {
                if (rs.next() && "ACTIVE".equals(rs.getString(1)) && rs.getLong(2) >= since - 1_000) {
                    return Optional.of(rs.getLong(2));
                }
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
        }
        return Optional.empty();
    }

    private static void deploy(Path config, Path rules) {
        StringWriter output = new StringWriter();
        PrintWriter out = new PrintWriter(output, true);
        int code = Main.execute(out, out, "deploy", "--config", config.toString(), rules.toString());
        if (code != 0) {
            throw new IllegalStateException("deploy of " + rules + " failed (exit " + code + "): " + output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The run's configuration without sync rules: they are deployed once every role is up. */
    private static Path writeConfig(PipelineRun.Settings settings) throws IOException {
        Path config = settings.rulesFile().resolveSibling(settings.name() + ".yaml");
        Files.writeString(config, settings.configYaml());
        return config;
    }
}
