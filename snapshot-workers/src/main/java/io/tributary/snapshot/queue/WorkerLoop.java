package io.tributary.snapshot.queue;

import io.tributary.postgres.Backoff;
import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.postgres.StoppedException;
import io.tributary.snapshot.ChunkListener;
import io.tributary.snapshot.internals.Failures;
import io.tributary.snapshot.internals.ProgressLog;
import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.read.SourceSession;
import io.tributary.storage.progress.ChunkCompletion;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.topics.codec.DeadLetters;
import io.tributary.topics.codec.MessageFormatException;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkTask;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One work loop: a member of the snapshot workers' consumer group over {@code snapshot-tasks} that takes the tasks of
 * a poll (highest priority first, see {@link PriorityGate}), claims a new attempt of each in storage, reads the chunks
 * and publishes them, and commits each task's offset once its chunk is acknowledged by Kafka and DONE in storage.
 *
 * <p>Batched: a poll returns at most {@link #tasksPerPoll} tasks (half the pipeline depth). The tasks of the highest
 * priority among them are run together ({@link ChunkAttempts#runBatch}: one claim, one source transaction); a task
 * of a lower priority is run on its own after the gate checked it, so priority is still rechecked before each such
 * chunk.
 *
 * <p>Pipelined: after reading chunks the loop polls the next tasks while Kafka still acknowledges the previous ones;
 * at most {@code pipelineDepth} read chunks wait for acknowledgement. The chunks acknowledged by then are marked
 * DONE together, in one storage statement, and their offsets (in poll order) are committed at most every
 * {@value #COMMIT_INTERVAL_MS} ms, when partitions are revoked and when the loop stops: a chunk is DONE in storage
 * before its offset is committed, so a task whose commit was lost is delivered again and skipped, never a chunk
 * skipped that is not DONE. While a long read runs the loop keeps its group membership alive (a poll with every
 * partition paused).
 *
 * <p>Failures of a read, and of a chunk Kafka did not acknowledge, are handled as {@link ChunkAttempts} decides:
 * another attempt, the table's window failed, or the loop stopped ({@link #failure()}). Runs on its own thread;
 * {@link #failure()} may be read from any thread.
 */
final class WorkerLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerLoop.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(10);
    private static final Duration HANDOFF_WAIT = Duration.ofSeconds(30);
    private static final long COMMIT_INTERVAL_MS = 1000;
    private static final String STAGE = "snapshot-worker";

    private final String name;
    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final String tasksTopic;
    private final String deadLetterTopic;
    private final SourceSession session;
    private final ChunkAttempts attempts;
    private final ProgressStore store;
    private final PriorityGate gate;
    private final ChunkListener listener;
    private final ProgressLog progress;
    private final RetryPolicy retry;
    private final StopSignal stop;
    private final int pipelineDepth;
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private final TaskOffsets offsets = new TaskOffsets(Duration.ofMillis(COMMIT_INTERVAL_MS));
    private volatile boolean aborted;
    private volatile Throwable failure;
    private long lastPoll = System.nanoTime();
    private boolean mainPoll;

    WorkerLoop(String name, LoopResources resources) {
        this.name = name;
        this.consumer = resources.consumer();
        this.producer = resources.producer();
        this.tasksTopic = resources.topics().snapshotTasks();
        this.deadLetterTopic = resources.topics().deadLetters();
        this.session = resources.session();
        this.store = resources.store();
        this.gate = new PriorityGate(resources.layout(), tasksTopic, resources.lag(), Duration.ofMillis(250),
            System::nanoTime);
        this.listener = resources.listener();
        this.progress = resources.progress();
        this.retry = resources.retry();
        this.stop = resources.stop();
        this.pipelineDepth = resources.pipelineDepth();
        this.attempts = new ChunkAttempts(resources, () -> aborted, this::keepAlive);
    }

    /** Stops at once: no offset is committed any more, work in progress is redone elsewhere as a new attempt. */
    void abort() {
        aborted = true;
        stop.stop();
    }

    /** Why the loop stopped on its own, if it did. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(tasksTopic), new Rebalance());
            while (!stop.isStopped()) {
                finishSettled(false);
                if (offsets.isDue()) {
                    commitOffsets();
                }
                if (inFlight.size() > pipelineDepth - tasksPerPoll(pipelineDepth)) {
                    finishHead();
                    continue;
                }
                gate.maybeResume(consumer);
                ConsumerRecords<byte[], byte[]> records;
                mainPoll = true;
                try {
                    records = consumer.poll(POLL_TIMEOUT);
                } finally {
                    mainPoll = false;
                }
                lastPoll = System.nanoTime();
                handle(records);
            }
            if (!aborted) {
                finishSettled(true);
                commitOffsets();
            }
        } catch (StoppedException | InterruptException | WakeupException e) {
            LOG.debug("Snapshot worker {} stopped: {}", name, e.toString());
        } catch (RuntimeException | Error e) {
            if (aborted) {
                LOG.debug("Snapshot worker {} aborted: {}", name, e.toString());
            } else {
                failure = e;
                LOG.error("Snapshot worker {} stopped by a failure: {}", name, Failures.describe(e), e);
            }
        } finally {
            close();
        }
    }

    /**
     * Tasks one poll returns: half the pipeline depth (at least one), so a loop polls while as many chunks are still
     * in flight and never holds more than {@code pipelineDepth}.
     */
    static int tasksPerPoll(int pipelineDepth) {
        return Math.max(1, pipelineDepth / 2);
    }

    /** Runs the tasks of one poll, in poll order (see the class comment). */
    private void handle(ConsumerRecords<byte[], byte[]> records) {
        List<ChunkAttempts.Queued> batch = new ArrayList<>();
        Set<TopicPartition> refused = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            if (refused.contains(partition)) {
                continue;
            }
            ChunkTask queued;
            try {
                queued = (ChunkTask) TopicCodec.SNAPSHOT_TASKS.decode(record);
            } catch (MessageFormatException e) {
                attempts.runBatch(batch, inFlight::addLast);
                batch.clear();
                LOG.error("Undecodable task sent to {}: {}", deadLetterTopic, e.getMessage());
                producer.send(DeadLetters.record(deadLetterTopic, record, STAGE, e));
                producer.flush();
                finishSettled(true);
                commit(record);
                continue;
            }
            if (gate.alwaysStarts(partition)) {
                batch.add(new ChunkAttempts.Queued(record, queued));
                continue;
            }
            attempts.runBatch(batch, inFlight::addLast);
            batch.clear();
            if (!gate.mayStart(consumer, partition)) {
                consumer.seek(partition, record.offset());
                refused.add(partition);
                continue;
            }
            inFlight.addLast(attempts.run(record, queued));
        }
        attempts.runBatch(batch, inFlight::addLast);
    }

    /**
     * Finishes the settled tasks at the head of the pipeline (with {@code wait}, every task): the acknowledged
     * chunks among them are completed together ({@link #completeAll}), a chunk Kafka did not acknowledge on its own
     * ({@link #complete}), in poll order.
     */
    private void finishSettled(boolean wait) {
        inFlight.forEach(InFlight::isSettled);
        List<InFlight> acknowledged = new ArrayList<>();
        while (!inFlight.isEmpty() && (wait || inFlight.peekFirst().isSettled())) {
            InFlight head = inFlight.removeFirst();
            awaitSettled(head);
            if (head.publication().isPresent() && failed(head.publication().get())) {
                completeAll(acknowledged);
                acknowledged.clear();
                complete(head);
            } else {
                acknowledged.add(head);
            }
        }
        completeAll(acknowledged);
    }

    /** Waits for the oldest task (keeping the group membership alive), then finishes it and the settled ones after. */
    private void finishHead() {
        awaitSettled(inFlight.peekFirst());
        finishSettled(false);
    }

    private void awaitSettled(InFlight entry) {
        while (!entry.isSettled()) {
            if (aborted) {
                throw new StoppedException("Aborted while waiting for Kafka");
            }
            try {
                entry.publication().orElseThrow().pending().get(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                keepAlive();
            } catch (ExecutionException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoppedException("Interrupted while waiting for Kafka");
            }
        }
    }

    /**
     * Completes a settled task on its own: marks its chunk DONE in storage and queues its offset. A chunk Kafka did
     * not acknowledge is run again as a new attempt first (or fails its table, if the error is permanent).
     */
    private void complete(InFlight entry) {
        InFlight current = entry;
        Backoff backoff = Backoff.of(retry);
        while (current.publication().isPresent() && failed(current.publication().get())) {
            Throwable error = Failures.unwrap(current.publication().get().acknowledged().handle((v, e) -> e).join());
            LOG.warn("Chunk {} attempt {} was not acknowledged by Kafka: {}", current.task().chunkId(),
                current.task().attempt(), Failures.describe(error));
            if (!attempts.recover(current.task(), error instanceof Exception ex ? ex : new IllegalStateException(error),
                backoff)) {
                commit(current.record());
                return;
            }
            current = attempts.run(current.record(), current.task());
            awaitSettled(current);
        }
        completeAll(List.of(current));
    }

    /**
     * Marks the read chunks of {@code settled} (each acknowledged by Kafka) DONE in one storage statement, then
     * queues every task's offset for the next commit, in order.
     */
    private void completeAll(List<InFlight> settled) {
        if (settled.isEmpty()) {
            return;
        }
        List<ChunkCompletion> chunks = new ArrayList<>();
        for (InFlight entry : settled) {
            entry.publication().ifPresent(p -> chunks.add(new ChunkCompletion(p.task().chunkId(), p.rows(),
                p.highWatermark().toString())));
        }
        Map<String, WindowProgress> done = chunks.isEmpty() ? Map.of() : new HashMap<>(store.complete(chunks));
        for (InFlight entry : settled) {
            entry.publication().ifPresent(publication -> {
                ChunkTask task = publication.task();
                WindowProgress window = done.remove(task.chunkId());
                if (window != null) {
                    progress.chunkDone(window, publication.rows());
                    listener.chunkDone(task, publication.rows(), publication.highWatermark());
                }
            });
            commit(entry.record());
        }
    }

    private static boolean failed(ChunkPublication publication) {
        return publication.acknowledged().isCompletedExceptionally();
    }

    /** Queues the offset after {@code record} for the next commit ({@link #commitOffsets}). */
    private void commit(ConsumerRecord<byte[], byte[]> record) {
        offsets.queue(record);
    }

    /** Commits the queued offsets of the partitions still assigned, in one request. */
    private void commitOffsets() {
        offsets.commit(consumer);
    }

    /** Keeps the group membership during a long read: a poll with every partition paused. */
    private void keepAlive() {
        if (System.nanoTime() - lastPoll < KEEP_ALIVE.toNanos()) {
            return;
        }
        Set<TopicPartition> wasPaused = new HashSet<>(consumer.paused());
        Set<TopicPartition> assigned = new HashSet<>(consumer.assignment());
        consumer.pause(assigned);
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
        lastPoll = System.nanoTime();
        for (TopicPartition partition : records.partitions()) {
            consumer.seek(partition, records.records(partition).get(0).offset());
        }
        Set<TopicPartition> resume = new HashSet<>(assigned);
        resume.retainAll(consumer.assignment());
        resume.removeAll(wasPaused);
        consumer.resume(resume);
    }

    private void close() {
        if (aborted) {
            Thread.interrupted();
        }
        try {
            consumer.close(CloseOptions.timeout(aborted ? Duration.ZERO : Duration.ofSeconds(10)));
        } catch (RuntimeException e) {
            LOG.debug("Closing the consumer of {} failed: {}", name, e.toString());
        }
        session.close();
        store.close();
    }

    /** Pauses low priorities on assignment; hands over finished chunks before partitions go. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            gate.onAssigned(consumer, partitions);
        }

        /**
         * Hands over cleanly when revoked between tasks (in the loop's own poll): waits a while for the chunks in
         * flight, completes them and commits every queued offset. During a keep-alive poll (inside a read or a
         * completion) it commits the offsets queued so far and leaves the chunks in flight: their commits are
         * skipped later and the new owner skips the chunks that are DONE by then.
         */
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            gate.onRevoked(partitions);
            if (aborted) {
                return;
            }
            try {
                handOver();
            } finally {
                commitOffsets();
            }
        }

        private void handOver() {
            if (!mainPoll) {
                return;
            }
            long deadline = System.nanoTime() + HANDOFF_WAIT.toNanos();
            while (!inFlight.isEmpty()) {
                InFlight head = inFlight.peekFirst();
                long remaining = deadline - System.nanoTime();
                while (!head.isSettled() && remaining > 0) {
                    try {
                        head.publication().orElseThrow().pending().get(remaining, TimeUnit.NANOSECONDS);
                    } catch (TimeoutException | ExecutionException e) {
                        LOG.debug("Chunk {} not acknowledged before its partition goes: {}", head.task().chunkId(),
                            e.toString());
                        break;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    remaining = deadline - System.nanoTime();
                }
                if (!head.isSettled() || head.publication().map(WorkerLoop::failed).orElse(false)) {
                    inFlight.clear();
                    return;
                }
                finishHead();
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            gate.onRevoked(partitions);
            inFlight.removeIf(entry -> partitions.contains(entry.partition()));
            offsets.forget(partitions);
        }
    }
}
