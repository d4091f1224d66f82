package io.tributary.chaos.infra;

import io.tributary.chaos.harness.OperatorCommand;
import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.SourceHistory;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;

/**
 * {@code rows-recreated}: Kafka loses the table log while the pipeline runs: once streaming, {@code rows} is
 * deleted and created again empty (same partitions and topic settings, a new topic id). The scenario requires the
 * documented path: the storage writers detect it within {@link #DETECT_TIMEOUT} and their process (a split
 * deployment's storage role runs no planner) stops with an error naming the group, the topic ids and
 * {@code tributary recover} (an expected exit); the lost ACTIVE group keeps serving its last checkpoint, neither
 * later nor earlier. The stream workers run on: a stream thread whose Kafka transaction had records for the deleted
 * topic in flight is replaced and redoes its work (any stream worker exit fails the run). The operator runs
 * {@code tributary recover --config FILE} and starts the storage writers again; the replacement group (the same
 * rules, the log rebuilt by a snapshot of every table) must become ACTIVE at a checkpoint at or past the lost one
 * within {@link #REPLACE_TIMEOUT}, the lost group serving its checkpoint until then. The run's audit covers every
 * checkpoint of both groups; the writes committed meanwhile are counted.
 */
public final class RowsRecreatedScenario implements InfraScenario {

    static final Duration DETECT_TIMEOUT = Duration.ofSeconds(30);
    static final Duration REPLACE_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration POLL = Duration.ofMillis(500);

    private volatile PipelineSettings settings;

    @Override
    public String name() {
        return "rows-recreated";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return;
        }
        Phase hit = context.phase();
        SyncRulesGroup lost = context.newestGroup().orElseThrow();
        String rows = new TopicNames(settings.topicPrefix()).rows();
        long writesBefore = SourceHistory.versions(settings.source());
        context.expectExits(ProcessRole.STORAGE_WRITER);
        recreate(context, rows);
        long recreated = System.nanoTime();
        context.injected(rows + " deleted and created again (a new topic id) while group " + lost.id()
            + " is ACTIVE", Phase.STREAMING, hit);
        Checkpoint served = lost.checkpoint().orElseThrow();
        List<ProcessExit> exits = awaitWritersStopped(context, lost.id(), served);
        long detected = (System.nanoTime() - recreated) / 1_000_000;
        for (String expected : List.of("Sync rules group " + lost.id(), rows, "tributary recover")) {
            if (exits.stream().noneMatch(e -> e.logTail().contains(expected))) {
                throw new IllegalStateException("rows-recreated: the storage writers stopped without naming \""
                    + expected + "\": " + exits);
            }
        }
        served = servedCheckpoint(context, lost.id(), served);
        context.log("rows-recreated: loss detected, storage writers stopped after " + detected + " ms; group "
            + lost.id() + " serves " + served);
        OperatorCommand.Result recover = OperatorCommand.run(settings, "recover", COMMAND_TIMEOUT, "recover");
        if (recover.exitCode() != 0) {
            throw new IllegalStateException("rows-recreated: tributary recover exited with " + recover.exitCode()
                + ": " + recover.output());
        }
        context.log("rows-recreated: operator ran tributary recover --config FILE: " + recover.output().strip());
        context.expectNoExits(ProcessRole.STORAGE_WRITER);
        restart(context, exits);
        SyncRulesGroup replacement = awaitReplacement(context, lost.id(), served);
        long written = SourceHistory.versions(settings.source()) - writesBefore;
        context.log("rows-recreated: group " + replacement.id() + " ACTIVE at " + replacement.checkpoint()
            .orElseThrow() + ", past group " + lost.id() + "'s " + served + "; the workload wrote " + written
            + " row versions meanwhile");
        if (written <= 0) {
            throw new IllegalStateException("rows-recreated: the workload committed nothing during the recovery");
        }
    }

    /** Deletes {@code rows} and creates it again with the same partitions and topic settings. */
    private void recreate(FaultContext context, String rows) throws InterruptedException {
        try (Admin admin = settings.admin()) {
            int partitions = admin.describeTopics(List.of(rows)).allTopicNames().get().get(rows).partitions().size();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, rows);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            Map<String, String> configs = new HashMap<>();
            for (ConfigEntry entry : config.entries()) {
                if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                    configs.put(entry.name(), entry.value());
                }
            }
            admin.deleteTopics(List.of(rows)).all().get();
            long deadline = System.nanoTime() + DETECT_TIMEOUT.toNanos();
            while (true) {
                try {
                    admin.createTopics(List.of(new NewTopic(rows, partitions, (short) 1).configs(configs))).all()
                        .get();
                    return;
                } catch (ExecutionException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    context.hold(POLL);
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("rows-recreated: cannot delete and create " + rows + " again",
                e.getCause());
        }
    }

    /** The storage writers' exits, once every storage writer process stopped; the lost group's checkpoint held. */
    private List<ProcessExit> awaitWritersStopped(FaultContext context, long group, Checkpoint served) {
        int writers = context.pipeline().processes(ProcessRole.STORAGE_WRITER).size();
        long deadline = System.nanoTime() + DETECT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            servedCheckpoint(context, group, served);
            List<ProcessExit> exits = exits(context, ProcessRole.STORAGE_WRITER);
            if (exits.size() >= writers) {
                return exits;
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("rows-recreated: " + exits(context, ProcessRole.STORAGE_WRITER).size()
            + " of " + writers + " storage writer processes stopped within " + DETECT_TIMEOUT + " of the loss of the"
            + " table log");
    }

    private static List<ProcessExit> exits(FaultContext context, ProcessRole role) {
        return context.expectedExits().stream().filter(e -> e.name().startsWith(role.shortName() + "-")).toList();
    }

    private static void restart(FaultContext context, List<ProcessExit> exits) {
        List<PipelineProcess> stopped = new ArrayList<>();
        for (ProcessExit exit : exits) {
            context.pipeline().all().stream().filter(p -> p.name().equals(exit.name())).findFirst()
                .ifPresent(stopped::add);
        }
        stopped.forEach(context.pipeline()::restart);
    }

    /**
     * Group {@code group}'s checkpoint now, which must be {@code served} or later as long as its writers may have run
     * (a checkpoint sealed before the loss), and never earlier; once the writers stopped, exactly {@code served}.
     */
    private static Checkpoint servedCheckpoint(FaultContext context, long group, Checkpoint served) {
        Checkpoint now = context.group(group).flatMap(SyncRulesGroup::checkpoint).orElseThrow(
            () -> new IllegalStateException("rows-recreated: lost group " + group + " serves no checkpoint"));
        if (now.opId() < served.opId() || now.epoch() < served.epoch()) {
            throw new IllegalStateException("rows-recreated: lost group " + group + "'s checkpoint went back from "
                + served + " to " + now);
        }
        return now;
    }

    /** The replacement group once ACTIVE at or past {@code served}; the lost group holds {@code served} until then. */
    private SyncRulesGroup awaitReplacement(FaultContext context, long lost, Checkpoint served) {
        long deadline = System.nanoTime() + REPLACE_TIMEOUT.toNanos();
        Optional<SyncRulesGroup> newest = Optional.empty();
        while (System.nanoTime() < deadline) {
            newest = context.newestGroup();
            Optional<SyncRulesGroup> old = context.group(lost);
            if (newest.isPresent() && newest.get().id() != lost && newest.get().state() == GroupState.ACTIVE) {
                Checkpoint at = newest.get().checkpoint().orElseThrow();
                if (Lsn.parse(at.lsn()).isBefore(Lsn.parse(served.lsn()))) {
                    throw new IllegalStateException("rows-recreated: replacement group " + newest.get().id()
                        + " became ACTIVE at " + at + ", before the lost group's " + served);
                }
                return newest.get();
            }
            if (old.isPresent() && old.get().state().isLive()) {
                Checkpoint now = old.get().checkpoint().orElseThrow();
                if (!now.equals(served)) {
                    throw new IllegalStateException("rows-recreated: lost group " + lost + " moved from " + served
                        + " to " + now + " before its replacement was ACTIVE");
                }
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("rows-recreated: no replacement of group " + lost + " ACTIVE within "
            + REPLACE_TIMEOUT + " of tributary recover (newest " + newest + ")");
    }
}
