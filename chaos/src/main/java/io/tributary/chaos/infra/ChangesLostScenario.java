package io.tributary.chaos.infra;

import io.tributary.chaos.check.Quiescence;
import io.tributary.chaos.harness.OperatorCommand;
import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.SourceHistory;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code changes-lost}: Kafka removes changes the stream workers had not merged. Once streaming, every stream
 * worker process is stopped; once ingest has written changes they did not read (the workload goes on), retention
 * removes every record of {@code changes}. Required, as docs/reliability.md documents the loss: the stream workers,
 * started again, stop within {@link #DETECT_TIMEOUT} naming the loss and {@code tributary recover} (an expected
 * exit); the group keeps serving (its checkpoint never goes back); the operator runs
 * {@code tributary recover --config FILE} (which snapshots every table again, replacing its rows) and starts the
 * stream workers again; the group's checkpoint then reaches the source's WAL position read after the recovery,
 * within {@link #RESUME_TIMEOUT}. The run's audit covers every checkpoint, those published while every table is
 * snapshotted again included, and the end of the run compares storage with the source, which catches a lost change
 * that stayed lost. The writes committed meanwhile are counted.
 */
public final class ChangesLostScenario implements InfraScenario {

    static final Duration DETECT_TIMEOUT = Duration.ofSeconds(60);
    static final Duration RESUME_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration UNREAD_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration POLL = Duration.ofMillis(500);

    @Override
    public String name() {
        return "changes-lost";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        PipelineSettings settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return;
        }
        Phase hit = context.phase();
        SyncRulesGroup group = context.newestGroup().orElseThrow();
        Checkpoint served = group.checkpoint().orElseThrow();
        long writesBefore = SourceHistory.versions(settings.source());
        TopicNames names = new TopicNames(settings.topicPrefix());
        List<PipelineProcess> workers = new ArrayList<>(context.pipeline().processes(ProcessRole.STREAM_WORKER));
        workers.forEach(context.pipeline()::stop);
        long removed;
        long unread;
        try (Admin admin = settings.admin()) {
            Map<TopicPartition, Long> ends = awaitUnread(context, admin, names);
            unread = unread(admin, names, ends);
            removed = TopicRetention.removeBefore(admin, names.changes(), ends);
        } catch (ExecutionException e) {
            throw new IllegalStateException(name() + ": cannot remove the records of " + names.changes(),
                e.getCause());
        }
        long lostAt = System.nanoTime();
        context.injected("every stream worker stopped, " + removed + " records of changes removed by retention, "
            + unread + " of them not merged yet", Phase.STREAMING, hit);

        context.expectExits(ProcessRole.STREAM_WORKER);
        List<PipelineProcess> restarted = new ArrayList<>();
        workers.forEach(worker -> restarted.add(context.pipeline().restart(worker)));
        List<ProcessExit> exits = awaitStopped(context, restarted, group.id(), served);
        context.log(name() + ": the stream workers stopped " + (System.nanoTime() - lostAt) / 1_000_000
            + " ms after the loss, naming it and tributary recover");

        OperatorCommand.Result recover = OperatorCommand.run(settings, "recover", COMMAND_TIMEOUT, "recover");
        if (recover.exitCode() != 0 || !recover.output().contains("Kafka lost records the stream workers had not"
            + " merged")) {
            throw new IllegalStateException(name() + ": tributary recover exited with " + recover.exitCode()
                + " without recovering the lost changes: " + recover.output());
        }
        context.log(name() + ": operator ran tributary recover --config FILE: " + recover.output().strip());
        Lsn after = Quiescence.sourcePosition(settings.source());
        context.expectNoExits(ProcessRole.STREAM_WORKER);
        for (ProcessExit exit : exits) {
            context.pipeline().all().stream().filter(p -> p.name().equals(exit.name())).findFirst()
                .ifPresent(context.pipeline()::restart);
        }
        Checkpoint resumed = awaitCheckpointPast(context, group.id(), served, after);
        long written = SourceHistory.versions(settings.source()) - writesBefore;
        context.log(name() + ": group " + group.id() + " at " + resumed + ", past the source's " + after + " after"
            + " the recovery; the workload wrote " + written + " row versions meanwhile");
        if (written <= 0) {
            throw new IllegalStateException(name() + ": the workload committed nothing during the loss and recovery");
        }
    }

    /** The end offsets of {@code changes} once some partition holds records the stream workers have not read. */
    private Map<TopicPartition, Long> awaitUnread(FaultContext context, Admin admin, TopicNames names)
        throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + UNREAD_TIMEOUT.toNanos();
        while (true) {
            context.hold(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)));
            Map<TopicPartition, Long> ends = TopicRetention.ends(admin, names.changes());
            if (unread(admin, names, ends) > 0) {
                return ends;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name() + ": ingest wrote nothing to " + names.changes() + " within "
                    + UNREAD_TIMEOUT + " of the stream workers' stop");
            }
        }
    }

    /** How many offsets of {@code changes} up to {@code ends} lie past the stream workers' committed offsets. */
    private static long unread(Admin admin, TopicNames names, Map<TopicPartition, Long> ends)
        throws InterruptedException, ExecutionException {
        return TopicRetention.unread(admin, StreamWorkerConfig.applicationId(names), ends);
    }

    /**
     * The exits of the restarted stream workers, once each stopped within {@link #DETECT_TIMEOUT} naming the loss
     * and the recovery; group {@code group}'s checkpoint checked never to go back from {@code served} meanwhile.
     */
    private List<ProcessExit> awaitStopped(FaultContext context, List<PipelineProcess> restarted, long group,
                                           Checkpoint served) {
        long deadline = System.nanoTime() + DETECT_TIMEOUT.toNanos();
        List<ProcessExit> exits = List.of();
        while (System.nanoTime() < deadline) {
            LostTableLog.checkpointNotBefore(context, name(), group, served);
            exits = context.expectedExits().stream()
                .filter(e -> e.name().startsWith(ProcessRole.STREAM_WORKER.shortName() + "-")).toList();
            if (exits.size() >= restarted.size()) {
                for (String expected : List.of("removed unread", "tributary recover --config FILE")) {
                    if (exits.stream().anyMatch(e -> !e.logTail().contains(expected))) {
                        throw new IllegalStateException(name() + ": a stream worker stopped without naming \""
                            + expected + "\": " + exits);
                    }
                }
                return exits;
            }
            context.hold(POLL);
        }
        throw new IllegalStateException(name() + ": " + exits.size() + " of " + restarted.size() + " stream worker"
            + " processes stopped within " + DETECT_TIMEOUT + " of the loss; their logs:\n"
            + context.pipeline().logTails(15));
    }

    /** Group {@code group}'s checkpoint once its LSN is at or past {@code lsn}; it never goes back meanwhile. */
    private Checkpoint awaitCheckpointPast(FaultContext context, long group, Checkpoint served, Lsn lsn) {
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        Checkpoint now = served;
        while (System.nanoTime() < deadline) {
            now = LostTableLog.checkpointNotBefore(context, name(), group, served);
            if (!Lsn.parse(now.lsn()).isBefore(lsn)) {
                return now;
            }
            context.hold(POLL);
        }
        throw new IllegalStateException(name() + ": group " + group + "'s checkpoint did not reach " + lsn
            + " within " + RESUME_TIMEOUT + " of tributary recover (last " + now + "); the processes' logs:\n"
            + context.pipeline().logTails(15));
    }
}
