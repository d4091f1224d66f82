package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code tasks-lost}: Kafka removes chunk tasks no snapshot worker took. While the snapshot runs (held open by the
 * run's {@link SnapshotHold}) and once the planner has published tasks, every snapshot worker process is stopped,
 * retention removes every record of {@code snapshot-tasks} (the tasks of chunks not read yet among them: a worker
 * commits a task only once its chunk is done) and the snapshot workers start again. Required, as
 * docs/reliability.md documents: the planner's next round finds that the log lost records and publishes the task of
 * every chunk not done again, so the group becomes ACTIVE (its snapshot complete) within {@link #RESUME_TIMEOUT};
 * the run's audit and its end's comparison of storage with the source check every row. No streaming fault.
 */
public final class TasksLostScenario implements InfraScenario {

    static final Duration RESUME_TIMEOUT = Duration.ofMinutes(3);
    /** How long the planner may take to publish the first tasks once the group is deployed. */
    private static final Duration TASKS_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(500);

    @Override
    public String name() {
        return "tasks-lost";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        PipelineSettings settings = context.directSettings();
        if (!context.awaitSnapshotRunning(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return;
        }
        Phase hit = context.phase();
        long group = context.newestGroup().orElseThrow().id();
        TopicNames names = new TopicNames(settings.topicPrefix());
        String workersGroup = names.prefix() + SnapshotWorkerConfig.GROUP_SUFFIX;
        List<PipelineProcess> workers = new ArrayList<>(context.pipeline().processes(ProcessRole.SNAPSHOT_WORKER));
        long removed;
        long untaken;
        try (Admin admin = settings.admin()) {
            awaitTasks(context, admin, names);
            workers.forEach(context.pipeline()::stop);
            Map<TopicPartition, Long> ends = TopicRetention.ends(admin, names.snapshotTasks());
            untaken = TopicRetention.unread(admin, workersGroup, ends);
            if (untaken == 0) {
                throw new IllegalStateException(name() + ": every task was done when the snapshot workers stopped;"
                    + " the hold should have kept the snapshot running");
            }
            removed = TopicRetention.removeBefore(admin, names.snapshotTasks(), ends);
        }
        context.injected("every snapshot worker stopped, " + removed + " records of snapshot-tasks removed by"
            + " retention, " + untaken + " of them not done yet", Phase.SNAPSHOT, hit);
        workers.forEach(context.pipeline()::restart);

        long lostAt = System.nanoTime();
        context.awaitStreaming(Duration.ZERO);
        if (context.stopping()) {
            return;
        }
        long took = (System.nanoTime() - lostAt) / 1_000_000;
        if (took > RESUME_TIMEOUT.toMillis()) {
            throw new IllegalStateException(name() + ": group " + group + " became ACTIVE " + took + " ms after the"
                + " loss, more than " + RESUME_TIMEOUT);
        }
        context.log(name() + ": group " + group + " ACTIVE " + took + " ms after the loss, its chunks read from"
            + " tasks the planner published again");
    }

    /** Waits until the planner has published tasks (its first round can take a while under the hold). */
    private void awaitTasks(FaultContext context, Admin admin, TopicNames names) throws Exception {
        long deadline = System.nanoTime() + TASKS_TIMEOUT.toNanos();
        while (TopicRetention.ends(admin, names.snapshotTasks()).values().stream().mapToLong(Long::longValue)
            .sum() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name() + ": the planner published no task to "
                    + names.snapshotTasks() + " within " + TASKS_TIMEOUT + " of the group's deploy");
            }
            context.hold(POLL);
        }
        context.hold(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)));
    }
}
