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
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the scenarios in which Kafka loses the table log ({@code rows-recreated}, {@code kafka-wiped}) require of the
 * pipeline and do as its operator, as docs/reliability.md documents the loss: every storage writer process stops
 * within {@link #DETECT_TIMEOUT} naming the loss and {@code tributary recover}; the lost group's checkpoint never
 * goes back, and once its writers stopped it stays exactly where it was; the operator runs
 * {@code tributary recover --config FILE} and starts the storage writers again; the replacement group becomes
 * ACTIVE at a checkpoint whose LSN is at or past the lost one within {@link #REPLACE_TIMEOUT}, the lost group serving
 * its checkpoint until then. Stateless apart from the scenario's name in its messages; used by the fault thread.
 */
final class LostTableLog {

    static final Duration DETECT_TIMEOUT = Duration.ofSeconds(30);
    static final Duration REPLACE_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration POLL = Duration.ofMillis(500);

    private final String scenario;

    LostTableLog(String scenario) {
        this.scenario = scenario;
    }

    /**
     * The state right before the loss.
     *
     * @param settings     the pipeline's direct settings
     * @param hit          the phase the loss hits
     * @param lost         the ACTIVE group that loses its log
     * @param rows         the table log's topic
     * @param writesBefore the source's row versions before the loss
     */
    record Before(PipelineSettings settings, Phase hit, SyncRulesGroup lost, String rows, long writesBefore) {
    }

    /**
     * Once the pipeline streams (after a random 2 to 5 s), the state before the loss, with the storage writers'
     * exits announced ({@link FaultContext#expectExits}); empty if the run never streamed.
     */
    Optional<Before> beforeLoss(FaultContext context) throws Exception {
        PipelineSettings settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return Optional.empty();
        }
        Phase hit = context.phase();
        SyncRulesGroup lost = context.newestGroup().orElseThrow();
        String rows = new TopicNames(settings.topicPrefix()).rows();
        long writesBefore = SourceHistory.versions(settings.source());
        context.expectExits(ProcessRole.STORAGE_WRITER);
        return Optional.of(new Before(settings, hit, lost, rows, writesBefore));
    }

    /**
     * What follows the loss of the table log, inflicted at {@code lostAt} ({@link System#nanoTime()}) in the state
     * {@code before}: the storage writers stop naming every one of {@code named}, the lost group's checkpoint holds,
     * the operator recovers ({@link #recover}, restarting {@code alsoRestart} too), the replacement becomes ACTIVE at
     * or past the lost checkpoint, and the workload committed something meanwhile.
     */
    void requireRecovery(FaultContext context, Before before, long lostAt, List<String> named,
                         List<ProcessRole> alsoRestart) throws IOException, InterruptedException, SQLException {
        SyncRulesGroup lost = before.lost();
        Checkpoint served = lost.checkpoint().orElseThrow();
        List<ProcessExit> exits = awaitWritersStopped(context, lost.id(), served, named);
        long detected = (System.nanoTime() - lostAt) / 1_000_000;
        served = servedCheckpoint(context, lost.id(), served);
        context.log(scenario + ": loss detected, storage writers stopped " + detected + " ms after it; group "
            + lost.id() + " serves " + served);
        recover(context, exits, alsoRestart);
        SyncRulesGroup replacement = awaitReplacement(context, lost.id(), served);
        long written = SourceHistory.versions(before.settings().source()) - before.writesBefore();
        context.log(scenario + ": group " + replacement.id() + " ACTIVE at " + replacement.checkpoint().orElseThrow()
            + ", past group " + lost.id() + "'s " + served + "; the workload wrote " + written
            + " row versions meanwhile");
        if (written <= 0) {
            throw new IllegalStateException(scenario + ": the workload committed nothing during the recovery");
        }
    }

    /**
     * The storage writers' exits, once every storage writer process stopped within {@link #DETECT_TIMEOUT}, each
     * naming every one of {@code named}; group {@code group}'s checkpoint checked never to go back from
     * {@code served} meanwhile. The caller announced the exits ({@link FaultContext#expectExits}).
     */
    private List<ProcessExit> awaitWritersStopped(FaultContext context, long group, Checkpoint served,
                                                  List<String> named) {
        int writers = context.pipeline().processes(ProcessRole.STORAGE_WRITER).size();
        long deadline = System.nanoTime() + DETECT_TIMEOUT.toNanos();
        List<ProcessExit> exits = List.of();
        while (System.nanoTime() < deadline) {
            servedCheckpoint(context, group, served);
            exits = exits(context);
            if (exits.size() >= writers) {
                for (String expected : named) {
                    if (exits.stream().noneMatch(e -> e.logTail().contains(expected))) {
                        throw new IllegalStateException(scenario + ": the storage writers stopped without naming \""
                            + expected + "\": " + exits);
                    }
                }
                return exits;
            }
            context.hold(POLL);
        }
        throw new IllegalStateException(scenario + ": " + exits.size() + " of " + writers + " storage writer"
            + " processes stopped within " + DETECT_TIMEOUT + " of the loss of the table log; their logs:\n"
            + context.pipeline().logTails(15));
    }

    /**
     * The operator's recovery: {@code tributary recover --config FILE} as a separate process, the processes of
     * {@code alsoRestart} restarted (those whose Kafka producers ran against a cluster that was replaced: their
     * acknowledgements are not trusted any more), then the stopped storage writers started again (their exits are
     * crashes again from here on). The restarts come before the writers', so before any snapshot chunk of the
     * recovery exists (its windows are cut once the writers have sealed past their truncations).
     */
    private void recover(FaultContext context, List<ProcessExit> exits, List<ProcessRole> alsoRestart)
        throws IOException, InterruptedException {
        OperatorCommand.Result recover = OperatorCommand.run(context.directSettings(), "recover", COMMAND_TIMEOUT,
            "recover");
        if (recover.exitCode() != 0) {
            throw new IllegalStateException(scenario + ": tributary recover exited with " + recover.exitCode() + ": "
                + recover.output());
        }
        context.log(scenario + ": operator ran tributary recover --config FILE: " + recover.output().strip());
        for (ProcessRole role : alsoRestart) {
            for (PipelineProcess process : context.pipeline().processes(role)) {
                context.pipeline().stop(process);
                context.pipeline().restart(process);
            }
            context.log(scenario + ": operator restarted the " + role.shortName() + " processes (their producers ran"
                + " against the replaced cluster)");
        }
        context.expectNoExits(ProcessRole.STORAGE_WRITER);
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
    private Checkpoint servedCheckpoint(FaultContext context, long group, Checkpoint served) {
        return checkpointNotBefore(context, scenario, group, served);
    }

    /** Group {@code group}'s checkpoint now; {@code scenario} fails if it serves none or one before {@code served}. */
    static Checkpoint checkpointNotBefore(FaultContext context, String scenario, long group, Checkpoint served) {
        Checkpoint now = context.group(group).flatMap(SyncRulesGroup::checkpoint).orElseThrow(
            () -> new IllegalStateException(scenario + ": group " + group + " serves no checkpoint"));
        if (now.opId() < served.opId() || now.epoch() < served.epoch()) {
            throw new IllegalStateException(scenario + ": group " + group + "'s checkpoint went back from " + served
                + " to " + now);
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
                    throw new IllegalStateException(scenario + ": replacement group " + newest.get().id()
                        + " became ACTIVE at " + at + ", before the lost group's " + served);
                }
                return newest.get();
            }
            if (old.isPresent() && old.get().state().isLive()) {
                Checkpoint now = old.get().checkpoint().orElseThrow();
                if (!now.equals(served)) {
                    throw new IllegalStateException(scenario + ": lost group " + lost + " moved from " + served
                        + " to " + now + " before its replacement was ACTIVE");
                }
            }
            context.hold(POLL);
        }
        throw new IllegalStateException(scenario + ": no replacement of group " + lost + " ACTIVE within "
            + REPLACE_TIMEOUT + " of tributary recover (newest " + newest + "); the processes' logs:\n"
            + context.pipeline().logTails(15));
    }

    private static List<ProcessExit> exits(FaultContext context) {
        return context.expectedExits().stream()
            .filter(e -> e.name().startsWith(ProcessRole.STORAGE_WRITER.shortName() + "-")).toList();
    }
}
