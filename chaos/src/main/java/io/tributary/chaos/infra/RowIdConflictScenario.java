package io.tributary.chaos.infra;

import io.tributary.chaos.harness.OperatorCommand;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.SourceFaults;
import io.tributary.chaos.workload.SourceHistory;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code row-id-conflict}: while the group streams, a tenant table is created whose primary key
 * {@code (id, owner)} the rules' {@code tenant_orders} query cannot use as {@code id}, and the workload writes to
 * it. The scenario requires the documented hold: the group's row-id conflict naming the table and
 * {@code tributary resnapshot}, {@code checkpoint held: ...} in a storage writer's log, and no checkpoint published
 * for {@link #HELD} while the workload commits (counted), the group serving its last one. Then it applies the
 * operator's fix: makes {@code id} the table's primary key and runs {@code tributary resnapshot --config FILE
 * tenant_1 orders}; the conflict must be gone and a later checkpoint published within {@link #RESUME_TIMEOUT}. The
 * run's audit covers every checkpoint before and after; its checks once quiet find the table's rows.
 */
public final class RowIdConflictScenario implements InfraScenario {

    /** How long the checkpoint must stay where it is once held, with the workload writing. */
    static final Duration HELD = Duration.ofSeconds(8);
    private static final Duration CONFLICT_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String HELD_LOG = "checkpoint held: ";
    /** How the conflict's problem, and so the held checkpoint's log line, names the group and the table. */
    private static final String CONFLICT_LOG = "reads \"tenant_1\".\"orders\", created or matched after its rules";

    private final long seed;
    private volatile PipelineSettings settings;

    public RowIdConflictScenario(long seed) {
        this.seed = seed;
    }

    @Override
    public String name() {
        return "row-id-conflict";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return;
        }
        Phase hit = context.phase();
        SourceFaults source = new SourceFaults(settings.source(), seed);
        String table = source.newTenantKeyedByIdAndOwner();
        context.injected("created " + table + " with primary key (id, owner), which tenant_orders' id cannot use",
            Phase.STREAMING, hit);
        long group = context.newestGroup().orElseThrow().id();
        String problem = awaitConflict(context, group);
        if (!problem.contains(CONFLICT_LOG)
            || !problem.contains("tributary resnapshot --config FILE tenant_1 orders")) {
            throw new IllegalStateException("row-id-conflict: the conflict does not name the table and the fix: "
                + problem);
        }
        String held = awaitHeldLog(context, group);
        Checkpoint last = checkpoint(context).orElseThrow(() -> new IllegalStateException(
            "row-id-conflict: group " + group + " serves no checkpoint while held"));
        long writesBefore = SourceHistory.versions(settings.source());
        long until = System.nanoTime() + HELD.toNanos();
        while (System.nanoTime() < until) {
            context.hold(POLL);
            Optional<Checkpoint> now = checkpoint(context);
            if (!now.equals(Optional.of(last))) {
                throw new IllegalStateException("row-id-conflict: group " + group + " published " + now
                    + " while held by a row-id conflict (it served " + last + ")");
            }
        }
        long written = SourceHistory.versions(settings.source()) - writesBefore;
        if (written <= 0) {
            throw new IllegalStateException("row-id-conflict: the workload committed nothing while the checkpoint"
                + " was held");
        }
        context.log("row-id-conflict: group " + group + " held at " + last + " for " + HELD + " while the workload"
            + " wrote " + written + " row versions; log: " + held);
        source.fixTenantKey(table);
        OperatorCommand.Result resnapshot = OperatorCommand.run(settings, "resnapshot", COMMAND_TIMEOUT,
            "resnapshot", "tenant_1", "orders");
        if (resnapshot.exitCode() != 0) {
            throw new IllegalStateException("row-id-conflict: tributary resnapshot exited with "
                + resnapshot.exitCode() + " after the key was fixed: " + resnapshot.output());
        }
        context.log("row-id-conflict: operator made id the primary key of " + table + ", then tributary resnapshot"
            + " --config FILE tenant_1 orders: " + resnapshot.output().strip());
        Checkpoint resumed = awaitCheckpointPast(context, group, last);
        context.log("row-id-conflict: conflict cleared, checkpoints resumed at " + resumed + " (held at " + last
            + ")");
    }

    private static Optional<Checkpoint> checkpoint(FaultContext context) {
        return context.newestGroup().flatMap(SyncRulesGroup::checkpoint);
    }

    /** The problem stored for {@code group}'s conflict, once the planner found it. */
    private String awaitConflict(FaultContext context, long group) throws SQLException {
        long deadline = System.nanoTime() + CONFLICT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> problem = conflict(group);
            if (problem.isPresent()) {
                return problem.get();
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("row-id-conflict: no row-id conflict of group " + group + " within "
            + CONFLICT_TIMEOUT + " after a table its id cannot use was created");
    }

    private Optional<String> conflict(long group) throws SQLException {
        try (Connection c = settings.storage().connect();
             PreparedStatement select = c.prepareStatement(
                 "SELECT problem FROM tributary.row_id_conflicts WHERE group_id = ?")) {
            select.setLong(1, group);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The {@code checkpoint held: ...} line of {@code group} in a storage writer's log. */
    private String awaitHeldLog(FaultContext context, long group) throws IOException {
        String marker = "Group " + group + ": " + HELD_LOG;
        long deadline = System.nanoTime() + CONFLICT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> line = logLine(marker);
            if (line.isPresent()) {
                return line.get();
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("row-id-conflict: no \"" + marker + "...\" in the storage writers' logs"
            + " within " + CONFLICT_TIMEOUT + " of the conflict");
    }

    private Optional<String> logLine(String marker) throws IOException {
        List<Path> logs;
        try (Stream<Path> files = Files.list(settings.logs())) {
            logs = files.filter(p -> p.getFileName().toString().startsWith("storage-writer")).toList();
        }
        for (Path log : logs) {
            try (Stream<String> lines = Files.lines(log)) {
                Optional<String> found = lines.filter(l -> l.contains(marker) && l.contains(CONFLICT_LOG))
                    .findFirst();
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private static Checkpoint awaitCheckpointPast(FaultContext context, long group, Checkpoint held) {
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        Optional<Checkpoint> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            last = context.newestGroup().filter(g -> g.id() == group).flatMap(SyncRulesGroup::checkpoint);
            if (last.isPresent() && last.get().epoch() > held.epoch()) {
                return last.get();
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("row-id-conflict: group " + group + " published no checkpoint past " + held
            + " within " + RESUME_TIMEOUT + " of tributary resnapshot (last " + last + ")");
    }
}
