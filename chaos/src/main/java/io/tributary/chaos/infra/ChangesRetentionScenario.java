package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code changes-retention}: while the group streams, every ingest process is stopped, retention removes every
 * record of {@code changes} (the log start of each partition moved to its end, as {@code retention.ms} does to old
 * segments, so no barrier is left in the topic), and ingest starts again. Checkpoints must resume without manual
 * action: once the stopped pipeline's checkpoint settled, the scenario requires a checkpoint of a higher epoch
 * within {@link #RESUME_TIMEOUT}, and fails the run otherwise. No snapshot-phase fault.
 */
public final class ChangesRetentionScenario implements InfraScenario {

    /** How long the checkpoints may take to resume once ingest runs again. */
    static final Duration RESUME_TIMEOUT = Duration.ofSeconds(90);
    /** The checkpoint is settled once it has not changed for this long with ingest stopped. */
    private static final Duration SETTLED = Duration.ofSeconds(3);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);
    /** How often the waits look again (watching for crashes meanwhile). */
    private static final Duration POLL = Duration.ofMillis(500);

    private volatile PipelineSettings settings;

    @Override
    public String name() {
        return "changes-retention";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(6)))) {
            return;
        }
        Phase hit = context.phase();
        List<PipelineProcess> stopped = new ArrayList<>(context.pipeline().processes(ProcessRole.INGEST));
        stopped.forEach(context.pipeline()::stop);
        long settled;
        long removed;
        try {
            settled = awaitSettledEpoch(context);
            removed = removeEveryRecord(context);
        } finally {
            stopped.forEach(context.pipeline()::restart);
        }
        context.injected("every ingest stopped, " + removed + " records of changes removed by retention (no barrier"
            + " left, checkpoint settled at epoch " + settled + "), ingest started again", Phase.STREAMING, hit);
        long resumed = awaitEpochAbove(context, settled);
        context.log("changes-retention: checkpoints resumed at epoch " + resumed + " (after " + settled + ")");
    }

    /** The newest group's checkpoint epoch once it stopped moving (ingest stopped, every barrier applied). */
    private static long awaitSettledEpoch(FaultContext context) {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        Optional<Checkpoint> last = checkpoint(context);
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            context.hold(POLL);
            Optional<Checkpoint> now = checkpoint(context);
            if (!now.equals(last)) {
                last = now;
                since = System.nanoTime();
            } else if (now.isPresent() && System.nanoTime() - since >= SETTLED.toNanos()) {
                return now.get().epoch();
            }
        }
        throw new IllegalStateException("changes-retention: the checkpoint did not settle within " + SETTLE_TIMEOUT
            + " with ingest stopped (last " + last + ")");
    }

    private static long awaitEpochAbove(FaultContext context, long settled) {
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        Optional<Checkpoint> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            last = checkpoint(context);
            if (last.isPresent() && last.get().epoch() > settled) {
                return last.get().epoch();
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("changes-retention: no checkpoint past epoch " + settled + " within "
            + RESUME_TIMEOUT + " after retention removed every barrier of changes and ingest started again (last "
            + last + ")");
    }

    private static Optional<Checkpoint> checkpoint(FaultContext context) {
        return context.newestGroup().flatMap(SyncRulesGroup::checkpoint);
    }

    /** Moves every partition's log start of {@code changes} to its end; returns how many records that removed. */
    private long removeEveryRecord(FaultContext context) throws InterruptedException {
        String changes = new TopicNames(settings.topicPrefix()).changes();
        try (Admin admin = settings.admin()) {
            Map<TopicPartition, Long> ends = TopicRetention.ends(admin, changes);
            awaitConsumed(context, admin, ends);
            return TopicRetention.removeBefore(admin, changes, ends);
        } catch (ExecutionException e) {
            throw new IllegalStateException("changes-retention: cannot remove the records of " + changes,
                e.getCause());
        }
    }

    /**
     * Waits until the stream workers committed every partition of {@code changes} up to {@code ends}: retention
     * removes only what they read (removing unread records too is {@code changes-lost}).
     */
    private void awaitConsumed(FaultContext context, Admin admin, Map<TopicPartition, Long> ends)
        throws InterruptedException, ExecutionException {
        String group = StreamWorkerConfig.applicationId(new TopicNames(settings.topicPrefix()));
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
            List<TopicPartition> behind = ends.keySet().stream().filter(p -> committed.get(p) == null
                || committed.get(p).offset() < ends.get(p)).toList();
            if (behind.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("changes-retention: the stream workers did not read " + behind
                    + " to their end within " + SETTLE_TIMEOUT);
            }
            context.hold(POLL);
        }
    }
}
