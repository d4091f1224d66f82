package io.tributary.snapshot.queue;

import io.tributary.postgres.Backoff;
import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.postgres.StoppedException;
import io.tributary.snapshot.ChunkListener;
import io.tributary.snapshot.internals.FailureKind;
import io.tributary.snapshot.internals.Failures;
import io.tributary.snapshot.internals.ProgressLog;
import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.read.ChunkReader;
import io.tributary.snapshot.read.SourceSession;
import io.tributary.storage.progress.WindowKey;
import io.tributary.topics.messages.ChunkTask;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work loop's chunk attempts: claims a chunk's next attempt in storage and reads it into a publication. The tasks
 * of a batch are claimed in one storage statement and read in one source transaction while it is young
 * ({@link ChunkReader#readAll}); if that shared read fails, the chunks it did not finish are run one by one as new
 * attempts. A single task is retried after a transient failure as a new attempt, after a backoff and up to the retry
 * deadline; a permanent failure for the table fails its window in storage (the task then needs only its commit);
 * anything else stops the loop. Used by the loop's own thread only.
 */
final class ChunkAttempts {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkAttempts.class);

    private final SourceSession session;
    private final ChunkReader reader;
    private final ProgressStore store;
    private final ChunkListener listener;
    private final ProgressLog progress;
    private final RetryPolicy retry;
    private final StopSignal stop;
    private final BooleanSupplier aborted;
    private final Runnable keepAlive;

    /**
     * @param resources the loop's resources (session, reader, store, listener, progress, retry, stop)
     * @param aborted   whether the loop was aborted (a failure then stops it instead of being handled)
     * @param keepAlive keeps the loop's group membership during a long read
     */
    ChunkAttempts(LoopResources resources, BooleanSupplier aborted, Runnable keepAlive) {
        this.session = resources.session();
        this.reader = resources.reader();
        this.store = resources.store();
        this.listener = resources.listener();
        this.progress = resources.progress();
        this.retry = resources.retry();
        this.stop = resources.stop();
        this.aborted = aborted;
        this.keepAlive = keepAlive;
    }

    /**
     * Claims the chunks of {@code batch} in one statement and reads them in shared transactions, handing each to
     * {@code sink} in poll order; a chunk named twice is read once (its second task is skipped). What a failed shared
     * read did not finish is run task by task ({@link #run}).
     */
    void runBatch(List<Queued> batch, Consumer<InFlight> sink) {
        if (batch.size() <= 1) {
            batch.forEach(queued -> sink.accept(run(queued.record(), queued.task())));
            return;
        }
        List<String> ids = batch.stream().map(queued -> queued.task().chunkId()).toList();
        Map<String, Integer> attempts = store.claimAll(ids);
        Deque<Queued> order = new ArrayDeque<>(batch);
        Set<String> reading = new HashSet<>();
        List<ChunkTask> tasks = new ArrayList<>();
        for (Queued queued : batch) {
            Integer attempt = attempts.get(queued.task().chunkId());
            if (attempt != null && reading.add(queued.task().chunkId())) {
                tasks.add(queued.task().withAttempt(attempt));
            }
        }
        try {
            reader.readAll(tasks, this::started, publication -> {
                skipUntil(order, publication.task().chunkId(), sink);
                sink.accept(InFlight.publishing(order.removeFirst().record(), publication));
            });
            skipUntil(order, null, sink);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoppedException("Interrupted while reading chunks " + ids);
        } catch (Exception e) {
            if (aborted.getAsBoolean()) {
                throw new StoppedException("Aborted while reading chunks " + ids);
            }
            session.rollbackQuietly();
            if (Failures.classifyRead(e) == FailureKind.RETRIABLE) {
                session.discard();
            }
            LOG.warn("Shared read of chunks {} failed ({}); the chunks it did not finish are read again one by one as"
                + " new attempts", ids, Failures.describe(e));
            Set<String> rerun = new HashSet<>();
            while (!order.isEmpty()) {
                Queued queued = order.removeFirst();
                if (reading.contains(queued.task().chunkId()) && rerun.add(queued.task().chunkId())) {
                    sink.accept(run(queued.record(), queued.task()));
                } else {
                    skip(queued, sink);
                }
            }
        }
    }

    /**
     * Hands the tasks at the head of {@code order} before the task of {@code chunkId} (every one, if null) to
     * {@code sink} as skipped: their chunks are DONE, their windows closed, or read by an earlier task of the batch.
     */
    private void skipUntil(Deque<Queued> order, String chunkId, Consumer<InFlight> sink) {
        while (!order.isEmpty() && !order.peekFirst().task().chunkId().equals(chunkId)) {
            skip(order.removeFirst(), sink);
        }
    }

    private void skip(Queued queued, Consumer<InFlight> sink) {
        LOG.debug("Skipping chunk {}: done already, its window is closed, or read by another task of its batch",
            queued.task().chunkId());
        listener.chunkSkipped(queued.task());
        sink.accept(InFlight.commitOnly(queued.record(), queued.task()));
    }

    /** Reports that {@code task}'s read starts; returns its progress listener. */
    private ChunkReader.Progress started(ChunkTask task) {
        listener.chunkStarted(task);
        progress.chunkStarted(task.table().schema(), task.table().name(), task.windowId());
        return rows -> {
            listener.rowsRead(task, rows);
            keepAlive.run();
        };
    }

    /** Claims and reads the chunk of {@code queued}, retrying transient failures as new attempts. */
    InFlight run(ConsumerRecord<byte[], byte[]> record, ChunkTask queued) {
        Backoff backoff = Backoff.of(retry);
        while (true) {
            OptionalInt attempt = store.claim(queued.chunkId());
            if (attempt.isEmpty()) {
                LOG.debug("Skipping chunk {}: done already or its window is closed", queued.chunkId());
                listener.chunkSkipped(queued);
                return InFlight.commitOnly(record, queued);
            }
            ChunkTask task = queued.withAttempt(attempt.getAsInt());
            try {
                ChunkPublication publication = reader.read(task, started(task));
                return InFlight.publishing(record, publication);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoppedException("Interrupted while reading chunk " + task.chunkId());
            } catch (Exception e) {
                if (aborted.getAsBoolean()) {
                    throw new StoppedException("Aborted while reading chunk " + task.chunkId());
                }
                session.rollbackQuietly();
                if (!recover(task, e, backoff)) {
                    return InFlight.commitOnly(record, task);
                }
            }
        }
    }

    /**
     * Handles the failure of {@code task}: true to run the chunk again (after a backoff), false if the table's
     * window failed (the task is to be committed); throws if the loop must stop.
     */
    boolean recover(ChunkTask task, Exception e, Backoff backoff) {
        switch (Failures.classifyRead(e)) {
            case TABLE:
                String error = "Chunk " + task.chunkId() + " " + task.range() + " of " + task.table().quoted()
                    + " failed permanently: " + Failures.describe(e);
                LOG.error("{}; the table's snapshot window {} is FAILED", error, task.windowId());
                store.fail(WindowKey.of(task.table().schema(), task.table().name(), task.windowId()), error);
                listener.tableFailed(task.table(), task.windowId(), error);
                return false;
            case RETRIABLE:
                session.discard();
                Duration wait = backoff.failed("Chunk " + task.chunkId() + " of " + task.table().quoted(), e);
                LOG.warn("Chunk {} of {} attempt {} failed ({}); retry {} in {} ms as a new attempt", task.chunkId(),
                    task.table().quoted(), task.attempt(), Failures.describe(e), backoff.failures(), wait.toMillis());
                if (!stop.pause(wait)) {
                    throw new StoppedException("Chunk " + task.chunkId() + " abandoned: stopping");
                }
                return true;
            default:
                throw new IllegalStateException("Chunk " + task.chunkId() + " of " + task.table().quoted()
                    + " failed: " + Failures.describe(e), e);
        }
    }

    /** A polled task, before its claim. */
    record Queued(ConsumerRecord<byte[], byte[]> record, ChunkTask task) {
    }
}
