package io.tributary.stream.topology;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.TaskId;

/**
 * Decides when a fresh barrier commits: once per barrier and stream thread, not once per task.
 *
 * <p>Under exactly-once every commit of a stream thread is one Kafka transaction over all of the thread's tasks, and
 * a barrier reaches every partition, so every task of the thread processes it, one task after the other between
 * other records. A task that processes a barrier asking for a prompt commit ({@link MergeProcessor}) does not
 * commit at once: the commit is asked for when the thread's last registered task has processed that barrier (or a
 * later one), so one transaction makes the barrier visible in all of the thread's partitions of {@code rows}. A
 * task that processes the barrier without asking itself (it merges snapshot rows, or the barrier is old) still
 * counts as having processed it. If a registered task has not processed the barrier within {@link #GATHER_LIMIT}
 * of the first ask (its partition lags, or it is being moved to another thread), the next punctuation of an asking
 * task commits what the thread has ({@link #overdue}); the lagging task's barrier then commits on its own.
 *
 * <p>Checkpoints wait for a barrier in every partition of {@code rows}, so committing when the thread's last task
 * has it makes no checkpoint later than committing per task did; it only saves the earlier tasks' transactions.
 *
 * <p>One instance per stream thread ({@link #forCurrentThread}); not thread-safe, used by that thread only.
 */
final class PromptCommits {

    /** How long an asked-for commit waits for the thread's other tasks to process the same barrier. */
    static final Duration GATHER_LIMIT = Duration.ofMillis(100);

    private final Set<TaskId> tasks = new HashSet<>();
    private final Map<TaskId, Long> newestEpoch = new HashMap<>();
    private final Set<TaskId> askers = new HashSet<>();
    /** The newest epoch a commit was asked for and not yet made; -1 when none is pending. */
    private long pendingEpoch = -1;
    private long pendingSinceMs;

    /** The stream threads' instances, one per thread of the topology that owns this. */
    static final class PerThread {
        private final ThreadLocal<PromptCommits> perThread = ThreadLocal.withInitial(PromptCommits::new);

        /** The calling stream thread's instance. */
        PromptCommits forCurrentThread() {
            return perThread.get();
        }
    }

    /** Counts {@code task} among this thread's tasks until {@link #unregister} (idempotent). */
    void register(TaskId task) {
        tasks.add(task);
    }

    /** Stops counting {@code task} (closed, or moved to another thread). */
    void unregister(TaskId task) {
        tasks.remove(task);
        newestEpoch.remove(task);
        askers.remove(task);
        if (askers.isEmpty()) {
            pendingEpoch = -1;
        }
    }

    /**
     * Records that {@code task} processed the barrier ending {@code epoch} at {@code nowMs} (wall clock), asking for
     * a prompt commit if {@code asks}.
     *
     * @return whether {@code task} is to ask Kafka Streams for a commit now: a prompt commit is pending and every
     *         registered task of the thread has processed its barrier
     */
    boolean barrier(TaskId task, long epoch, boolean asks, long nowMs) {
        newestEpoch.merge(task, epoch, Math::max);
        if (asks) {
            if (pendingEpoch < 0) {
                pendingSinceMs = nowMs;
            }
            pendingEpoch = Math.max(pendingEpoch, epoch);
            askers.add(task);
        }
        if (pendingEpoch < 0) {
            return false;
        }
        for (TaskId other : tasks) {
            if (newestEpoch.getOrDefault(other, -1L) < pendingEpoch) {
                return false;
            }
        }
        clear();
        return true;
    }

    /**
     * Whether {@code task} is to ask for a commit now because a pending prompt commit it asked for has waited
     * {@link #GATHER_LIMIT} for the thread's other tasks.
     */
    boolean overdue(TaskId task, long nowMs) {
        if (pendingEpoch < 0 || !askers.contains(task) || nowMs - pendingSinceMs < GATHER_LIMIT.toMillis()) {
            return false;
        }
        clear();
        return true;
    }

    private void clear() {
        pendingEpoch = -1;
        askers.clear();
    }
}
