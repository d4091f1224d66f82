package io.tributary.launcher.cli;

import io.tributary.ingest.planner.PlannerConfig;
import io.tributary.ingest.planner.PlanningException;
import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.SyncRulesMatcher;
import io.tributary.launcher.run.Pipeline;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tributary resnapshot --config FILE SCHEMA TABLE}: snapshot one table again in a new window, e.g. once
 * what failed its snapshot is fixed (a row too large for Kafka, a permission). The running pipeline reads it.
 */
@Command(name = "resnapshot", mixinStandardHelpOptions = true,
    description = {
        "Snapshot a table again in a new window (at the top priority), e.g. after fixing what failed its snapshot"
            + " (tributary status shows why) or changing its primary key. The new window replaces the table's rows:"
            + " the running pipeline removes them and snapshots the table again (its planner cuts the chunks once"
            + " every partition of the table log holds the removal); checkpoints of the groups that read the table"
            + " wait for it.",
        "Needs source.url, storage.url and kafka.bootstrap_servers."})
public final class ResnapshotCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Parameters(index = "0", paramLabel = "SCHEMA", description = "the table's schema, exact case, unquoted")
    private String schema;

    @Parameters(index = "1", paramLabel = "TABLE", description = "the table's name, exact case, unquoted")
    private String table;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        ConfigOption.requireExternalServices(settings, "resnapshot", "");
        TableId id = TableId.of(schema, table);
        PrintWriter out = spec.commandLine().getOut();
        try (Environment environment = Environment.start(settings, StartupWait.NONE);
             SnapshotPlanner planner = SnapshotPlanner.create(PlannerConfig.of(environment.kafkaClientProperties(),
                     Pipeline.topics(settings), Pipeline.layout(settings))
                     .withChunkRows(settings.replication().snapshotChunkRows())
                     .withPublication(settings.replication().publicationName())
                     .withSlot(settings.replication().slotName()),
                 () -> Environment.connect(environment.source()), () -> Environment.connect(environment.storage()),
                 new SyncRulesMatcher())) {
            Optional<String> window;
            try {
                window = planner.resnapshot(id, TaskPriority.ACTIVE_SNAPSHOT);
            } catch (PlanningException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return ExitCodes.FAILURE;
            }
            if (window.isEmpty()) {
                spec.commandLine().getErr().println("Not snapshotting " + id.quoted() + ": it has a snapshot in"
                    + " progress already, or it is not a table of the source");
                return ExitCodes.BAD_INPUT;
            }
            out.println("Snapshot of " + id.quoted() + " planned as window " + window.get() + ": the running"
                + " pipeline replaces the table's rows with it (tributary status shows its progress)");
            return ExitCodes.OK;
        }
    }
}
