package io.tributary.launcher.cli;

import io.tributary.ingest.planner.PlannerConfig;
import io.tributary.ingest.planner.SnapshotPlanner;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.PlannerTableRebuild;
import io.tributary.launcher.lifecycle.SyncRulesMatcher;
import io.tributary.launcher.lifecycle.TableLogRecovery;
import io.tributary.launcher.run.Pipeline;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.topics.provision.TopicProvisioner;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.TableLogLostException;
import io.tributary.writer.WriterConfig;
import java.io.PrintWriter;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tributary recover --config FILE}: after the Kafka log a group read was lost (a new cluster, deleted topics,
 * a broker that lost its data, a writer behind the tombstone retention), rebuilds the table log by snapshot and
 * deploys a replacement of the newest group ({@link TableLogRecovery}). Lost groups keep serving their last
 * checkpoint until the replacement is ACTIVE. Idempotent; a {@code tributary run} whose role includes the planner
 * does the same at start.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
    description = {
        "Recover from a lost Kafka log: snapshot every table again and deploy a replacement of the newest group"
            + " when its stored offsets no longer match the rows topic (tributary run reports this).",
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
            if (lost.isEmpty()) {
                out.println("Nothing to recover: every live group's stored offsets match the rows log in Kafka");
                return ExitCodes.OK;
            }
            TableLogRecovery.Outcome outcome = TableLogRecovery.recover(storage, lost,
                Optional.of(new PlannerTableRebuild(() -> planner)));
            out.println((outcome.rebuilt() ? "Every table is snapshotted again into the new log. " : "")
                + outcome.replacement().map(group -> "Deployed group " + group.id() + " (the same rules) as the"
                    + " replacement. ").orElse("")
                + "Lost groups keep serving their last checkpoint until the replacement is ACTIVE; start"
                + " `tributary run` (tributary status shows the progress)");
            return ExitCodes.OK;
        }
    }
}
