package io.tributary.launcher.cli;

import io.tributary.ingest.planner.PlannerConfig;
import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.MergeInputRecovery;
import io.tributary.launcher.lifecycle.PlannerTableRebuild;
import io.tributary.launcher.lifecycle.SyncRulesMatcher;
import io.tributary.launcher.lifecycle.TableLogRecovery;
import io.tributary.launcher.run.Pipeline;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.stream.MergeInputCheck;
import io.tributary.topics.provision.TopicProvisioner;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.TableLogLostException;
import io.tributary.writer.WriterConfig;
import java.io.PrintWriter;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tributary recover --config FILE}: after the Kafka log a group read was lost (a new cluster, deleted topics,
 * a broker that lost its data, a writer behind the tombstone retention), rebuilds the table log by snapshot and
 * deploys a replacement of the newest group ({@link TableLogRecovery}); a {@code tributary run} whose role includes
 * the planner does the same at start. After Kafka lost input records the stream workers had not merged (they refuse
 * to start then), snapshots every table again, replacing its rows, and moves the stream workers past the loss
 * ({@link MergeInputRecovery}; with every stream worker stopped). Lost groups keep serving their last checkpoint
 * meanwhile. Idempotent.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
    description = {
        "Recover from a lost Kafka log: snapshot every table again and deploy a replacement of the newest group"
            + " when its stored offsets no longer match the rows topic (tributary run reports this); after Kafka lost"
            + " changes the stream workers had not merged (they refuse to start), snapshot every table again,"
            + " replacing its rows, and move the stream workers past the loss (stop them first).",
        "Lost groups keep serving their last checkpoint until the replacement is ACTIVE. Needs source.url,"
            + " storage.url and kafka.bootstrap_servers."})
public final class RecoverCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        ConfigOption.requireExternalServices(settings, "recover", ", which recovers by itself");
        PrintWriter out = spec.commandLine().getOut();
        try (Environment environment = Environment.start(settings, StartupWait.NONE);
             Admin admin = Admin.create(environment.kafkaClientProperties());
             SnapshotPlanner planner = SnapshotPlanner.create(PlannerConfig.of(environment.kafkaClientProperties(),
                     Pipeline.topics(settings), Pipeline.layout(settings))
                     .withChunkRows(settings.replication().snapshotChunkRows())
                     .withPublication(settings.replication().publicationName())
                     .withSlot(settings.replication().slotName()),
                 () -> Environment.connect(environment.source()), () -> Environment.connect(environment.storage()),
                 new SyncRulesMatcher());
             Connection storage = Environment.connect(environment.storage())) {
            Migrations.migrate(storage);
            TopicProvisioner.ensure(admin, Pipeline.topics(settings), Pipeline.layout(settings));
            List<TableLogLostException> lost = new ArrayList<>();
            for (SyncRulesGroup group : SyncRulesGroups.list(storage)) {
                if (!group.state().isLive()) {
                    continue;
                }
                try {
                    StorageWriter.verifyTableLog(WriterConfig.of(environment.kafkaClientProperties(),
                        Pipeline.topics(settings), environment.storage().toPgEndpoint(), group.id(), group.content(),
                        1, 1));
                } catch (TableLogLostException e) {
                    out.println(e.getMessage());
                    lost.add(e);
                }
            }
            TableLogRecovery.Outcome outcome = TableLogRecovery.recover(storage, lost,
                Optional.of(new PlannerTableRebuild(() -> planner)));
            if (!lost.isEmpty()) {
                out.println((outcome.rebuilt() ? "Every table is snapshotted again into the new log. " : "")
                    + outcome.replacement().map(group -> "Deployed group " + group.id() + " (the same rules) as the"
                        + " replacement. ").orElse("")
                    + "Lost groups keep serving their last checkpoint until the replacement is ACTIVE; start"
                    + " `tributary run` (tributary status shows the progress)");
            }
            MergeInputRecovery.Outcome input;
            try {
                input = MergeInputRecovery.recover(admin, consumerSettings(environment), Pipeline.topics(settings),
                    storage, new PlannerTableRebuild(() -> planner), outcome.rebuilt());
            } catch (TableLogRecovery.UnsafeRecoveryException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return ExitCodes.FAILURE;
            }
            if (input.recovered()) {
                out.println("Kafka lost records the stream workers had not merged: " + input.losses().stream()
                    .map(MergeInputCheck.Loss::describe).collect(Collectors.joining("; ")) + ". "
                    + (outcome.rebuilt() ? "" : "Every table (" + input.tables() + ") is snapshotted again,"
                        + " replacing its rows; ")
                    + "the stream workers go on from the start of those logs. Groups keep serving their last"
                    + " checkpoint until the tables are snapshotted; start `tributary run`");
            }
            if (lost.isEmpty() && !input.recovered()) {
                out.println("Nothing to recover: every live group's stored offsets match the rows log in Kafka, and"
                    + " the stream workers' input holds every record they have not merged");
            }
            return ExitCodes.OK;
        }
    }

    private static Map<String, Object> consumerSettings(Environment environment) {
        Map<String, Object> settings = new HashMap<>();
        environment.kafkaClientProperties().forEach((key, value) -> settings.put(key.toString(), value));
        return settings;
    }
}
